/** Form3's transports: the three `http_*_private` ones are delivered as `http` is (docs/notifications.md). */
export type CallbackTransport = 'http' | 'queue' | 'http_aws_private' | 'http_gcp_private' | 'http_azure_private';
