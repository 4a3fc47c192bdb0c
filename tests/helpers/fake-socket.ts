// A stand-in for the browser's WebSocket, so the hook's connection rules can be driven by hand.
export class FakeSocket extends EventTarget {
  static readonly OPEN = 1;
  static readonly CLOSED = 3;
  static instances: FakeSocket[] = [];
  readyState = 0;
  sent: string[] = [];
  constructor(public readonly url: string) {
    super();
    FakeSocket.instances.push(this);
  }
  send(data: string) {
    this.sent.push(data);
  }
  close(code = 1000) {
    this.drop(code);
  }
  open() {
    this.readyState = FakeSocket.OPEN;
    this.dispatchEvent(new Event('open'));
  }
  /** The server (or the network) ends the connection with `code`. */
  drop(code: number) {
    this.readyState = FakeSocket.CLOSED;
    this.dispatchEvent(Object.assign(new Event('close'), { code }));
  }

  /** A server event arriving on this socket. */
  receive(payload: unknown) {
    this.dispatchEvent(Object.assign(new Event('message'), { data: JSON.stringify(payload) }));
  }
}
