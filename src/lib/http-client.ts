// What outbound requests (image downloads, event deliveries) make of a remote server's status.

/** The server does not offer HEAD: the download goes on with GET. */
export function headUnsupported(status: number): boolean {
  return status === 405 || status === 501;
}

/** Only a plain success carries the image (a redirect is followed before this). */
export function carriesBody(status: number): boolean {
  return status === 200;
}

/** A listener accepted an event: any 2xx. */
export function accepted(status: number): boolean {
  return status >= 200 && status < 300;
}
