/** An answer ready to write: the adapters only copy it onto their response. */
export interface ObAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}
