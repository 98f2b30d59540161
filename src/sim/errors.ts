/**
 * Domain failures. The domain speaks in kinds; src/api maps each kind to an HTTP status, so the
 * domain never knows about HTTP.
 */
export type DomainErrorKind = 'invalid' | 'not_found' | 'conflict' | 'forbidden' | 'unprocessable' | 'rate_limited';

export class DomainError extends Error {
  readonly kind: DomainErrorKind;
  /** For rate_limited: whole seconds until the request may be made again. */
  readonly retryAfterSeconds: number | undefined;
  constructor(kind: DomainErrorKind, message: string, retryAfterSeconds?: number) {
    super(message);
    this.kind = kind;
    this.retryAfterSeconds = retryAfterSeconds;
    this.name = 'DomainError';
  }
}

export const invalid = (message: string) => new DomainError('invalid', message);
export const notFound = (message: string) => new DomainError('not_found', message);
export const conflict = (message: string) => new DomainError('conflict', message);
export const rateLimited = (message: string, retryAfterSeconds: number) =>
  new DomainError('rate_limited', message, retryAfterSeconds);
