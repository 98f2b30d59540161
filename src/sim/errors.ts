/**
 * Domain failures. The domain speaks in kinds; src/api maps each kind to an HTTP status, so the
 * domain never knows about HTTP.
 */
export type DomainErrorKind = 'invalid' | 'not_found' | 'conflict' | 'forbidden' | 'unprocessable';

export class DomainError extends Error {
  readonly kind: DomainErrorKind;
  constructor(kind: DomainErrorKind, message: string) {
    super(message);
    this.kind = kind;
    this.name = 'DomainError';
  }
}

export const invalid = (message: string) => new DomainError('invalid', message);
export const notFound = (message: string) => new DomainError('not_found', message);
export const conflict = (message: string) => new DomainError('conflict', message);
export const forbidden = (message: string) => new DomainError('forbidden', message);
