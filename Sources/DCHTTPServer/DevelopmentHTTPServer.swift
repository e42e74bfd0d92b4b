package import DCHTTP
package import Foundation

#if canImport(CDCMicroHTTPD)
  internal import CDCMicroHTTPD

  /// An HTTP server that mounts any ``HTTP/HTTPHandler``: what `dcwallet issuer serve` and
  /// `verifier serve` and the loopback tests run the handlers on. On 127.0.0.1 by default; behind a
  /// TLS reverse proxy for anything else.
  ///
  /// GNU libmicrohttpd parses HTTP (nothing here reads the wire); this type turns each complete
  /// request into an ``HTTP/HTTPRequest`` and the handler's ``HTTP/HTTPResponse`` back into
  /// libmicrohttpd's response.
  ///
  /// - It listens on ``Configuration/address`` (127.0.0.1 unless told otherwise); port 0 binds an
  ///   ephemeral port, reported by ``port`` once ``start()`` returns.
  /// - Before a body is read, every request head passes the gate: ambiguous framing (two
  ///   `Content-Length`s, or one with `Transfer-Encoding`) gets 400; a `Host` other than the
  ///   ``Configuration/publicOrigin`` (forwarded host and scheme believed from
  ///   ``Configuration/trustedProxies`` only) 421; a state-changing request from another origin
  ///   403 and a body of the wrong media type 415, per the handler's ``HTTP/HTTPEndpointPolicy``
  ///   (``HTTP/HTTPEndpointPolicyProviding``); CORS headers only where a policy lists origins.
  /// - The request URL is rebuilt on the public origin (else `http://127.0.0.1:PORT`) followed by
  ///   the request target as received (path and query, still percent-encoded); a target that is
  ///   not origin-form (RFC 9112 §3.2.1) gets 400.
  /// - Every header field line reaches the handler, in order, repeated names included.
  /// - Limits (``Configuration``): a request body above ``Configuration/maxRequestBodyBytes`` gets
  ///   413 (at once when `Content-Length` declares it, otherwise as soon as the body passes it,
  ///   never buffering beyond the limit); more than ``Configuration/maxHeaderCount`` header fields
  ///   get 431; the request line and header fields must fit libmicrohttpd's per-connection memory
  ///   (``Configuration/connectionMemoryLimit``, answered by libmicrohttpd with 414 or 431); a
  ///   request head must arrive within ``Configuration/headDeadline`` and its body within
  ///   ``Configuration/bodyDeadline`` (then the connection is closed, however steadily bytes
  ///   trickle); an idle connection is closed after ``Configuration/connectionTimeout`` seconds; a
  ///   handler that does not answer within ``Configuration/handlerTimeout`` gets its task
  ///   cancelled and the client 503; at most ``Configuration/maxConnections`` connections are
  ///   served at once, at most ``Configuration/maxConnectionsPerClient`` from one address.
  ///
  /// Threading: one thread per connection (libmicrohttpd's `MHD_USE_THREAD_PER_CONNECTION`). The
  /// connection's thread starts the handler as a Swift `Task` and blocks until the handler answers,
  /// the handler timeout passes or the server stops. The handler's task prefers an executor of its
  /// own (an overcommitting dispatch queue), so neither the waiting threads nor a busy Swift
  /// concurrency pool stall it; whatever it runs on an actor runs on that actor. A thread of its
  /// own sweeps the connections for deadlines.
  ///
  /// Plain HTTP only: TLS and client authentication belong to the reverse proxy in front.
  package final class DevelopmentHTTPServer: @unchecked Sendable {
    /// Where the server listens, the origin it answers for, and its limits.
    package struct Configuration: Sendable, Hashable {
      /// The port to listen on; 0 picks an ephemeral port (see ``port``).
      package var port: UInt16
      /// The address to listen on: 127.0.0.1 unless told otherwise (never every interface by
      /// default).
      package var address: IPAddress
      /// The one origin the server answers for (its public URL's): a request whose `Host` (or,
      /// from a trusted proxy, `Forwarded`'s `host=` and `proto=`, or `X-Forwarded-Host` and
      /// `X-Forwarded-Proto`) names another gets 421,
      /// and request URLs are rebuilt on it. Nil: loopback development, where `Host` must name
      /// 127.0.0.1, localhost or [::1].
      package var publicOrigin: HTTPOrigin?
      /// The reverse proxies whose RFC 7239 `Forwarded` (when they send it; a malformed one gets
      /// 400) or else `X-Forwarded-For`, `-Host` and `-Proto` are believed; from any other peer
      /// neither is read. Their connections are exempt from the per-client cap, which
      /// counts their clients' requests instead.
      package var trustedProxies: Set<IPAddress>
      /// The largest request body accepted, in bytes; a larger one gets 413.
      package var maxRequestBodyBytes: Int
      /// The most header fields a request may carry; more get 431.
      package var maxHeaderCount: Int
      /// libmicrohttpd's per-connection memory pool in bytes (`MHD_OPTION_CONNECTION_MEMORY_LIMIT`):
      /// the request line and all header fields must fit in it, beside the read buffer; libmicrohttpd
      /// answers 414 or 431 when they do not.
      package var connectionMemoryLimit: Int
      /// Seconds of inactivity after which libmicrohttpd closes a connection
      /// (`MHD_OPTION_CONNECTION_TIMEOUT`).
      package var connectionTimeout: UInt32
      /// Seconds a client has to send a whole request head (from the connection's start, or the
      /// end of its previous request); then the connection is closed, however busy it is.
      package var headDeadline: TimeInterval
      /// Seconds a client has to send a whole body once its head arrived; then the connection is
      /// closed.
      package var bodyDeadline: TimeInterval
      /// The longest a handler may take, in seconds; then its task is cancelled and the client gets
      /// 503.
      package var handlerTimeout: TimeInterval
      /// The most connections served at once (`MHD_OPTION_CONNECTION_LIMIT`); each has a thread.
      package var maxConnections: UInt32
      /// The most connections one client address may hold at once (further ones are closed as
      /// they are accepted); behind a trusted proxy, the most requests in flight from one
      /// forwarded client address (further ones get 429).
      package var maxConnectionsPerClient: UInt32

      /// Creates a configuration; the defaults suit OpenID4VCI endpoints on loopback.
      package init(
        port: UInt16 = 0, address: IPAddress = .loopbackIPv4, publicOrigin: HTTPOrigin? = nil,
        trustedProxies: Set<IPAddress> = [], maxRequestBodyBytes: Int = 1 << 20,
        maxHeaderCount: Int = 100, connectionMemoryLimit: Int = 32 * 1024,
        connectionTimeout: UInt32 = 30, headDeadline: TimeInterval = 10,
        bodyDeadline: TimeInterval = 30, handlerTimeout: TimeInterval = 30,
        maxConnections: UInt32 = 64, maxConnectionsPerClient: UInt32 = 16
      ) {
        self.port = port
        self.address = address
        self.publicOrigin = publicOrigin
        self.trustedProxies = trustedProxies
        self.maxRequestBodyBytes = maxRequestBodyBytes
        self.maxHeaderCount = maxHeaderCount
        self.connectionMemoryLimit = connectionMemoryLimit
        self.connectionTimeout = connectionTimeout
        self.headDeadline = headDeadline
        self.bodyDeadline = bodyDeadline
        self.handlerTimeout = handlerTimeout
        self.maxConnections = maxConnections
        self.maxConnectionsPerClient = maxConnectionsPerClient
      }
    }

    /// The server's configuration.
    package let configuration: Configuration
    private let core: ServerCore
    private let lock = NSLock()
    // Guarded by `lock`.
    private var daemon: OpaquePointer?
    private var boundPort: UInt16?

    /// Creates a server for `handler`; nothing listens until ``start()``.
    package init(handler: any HTTPHandler, configuration: Configuration = Configuration()) {
      self.configuration = configuration
      self.core = ServerCore(handler: handler, configuration: configuration)
    }

    deinit { stop() }

    /// The port the server listens on, once started; nil before ``start()`` and after ``stop()``.
    package var port: UInt16? {
      lock.lock()
      defer { lock.unlock() }
      return boundPort
    }

    /// Request contexts not yet released (tests check that none leak).
    var liveRequestCount: Int { core.liveRequests.value }

    /// `http://127.0.0.1:PORT` once started (the loopback address, whatever the public origin).
    package var baseURL: URL? {
      port.flatMap { URL(string: "http://127.0.0.1:\($0)") }
    }

    /// Starts listening on the configured address and returns the bound port. Starting a started server
    /// returns its port.
    ///
    /// - Throws: ``DCHTTP/HTTPErrorCode/serverStartFailed`` when libmicrohttpd cannot start (the port
    ///   is in use, no threads, ...); `underlying` carries `errno` as a `POSIXError` when set.
    @discardableResult
    package func start() throws(HTTPError) -> UInt16 {
      lock.lock()
      defer { lock.unlock() }
      if let boundPort { return boundPort }
      let started = try core.start(port: configuration.port)
      daemon = started.daemon
      boundPort = started.port
      return started.port
    }

    /// Stops the server and frees its port. Blocks until every connection thread has ended:
    /// requests waiting for their handler are answered 503 at once, their tasks cancelled.
    /// Stopping a stopped server does nothing.
    package func stop() {
      lock.lock()
      defer { lock.unlock() }
      guard let daemon else { return }
      core.stop(daemon)
      self.daemon = nil
      boundPort = nil
    }
  }
#endif
