/** Who makes a request: the client a bearer token or a request signature names, and its organisation. */
export interface Caller {
  organisationId: string;
  clientId: string;
}
