#if canImport(CDCMicroHTTPD)
  internal import CDCMicroHTTPD
  import Foundation
  import DCHTTP

  #if canImport(Glibc)
    import Glibc
  #elseif canImport(Musl)
    import Musl
  #elseif canImport(Darwin)
    import Darwin
  #endif

  /// What libmicrohttpd's callbacks reach through their `cls` pointer: the handler, the limits,
  /// and the requests waiting for their handler. The daemon holds one retain on it from start to
  /// stop.
  final class ServerCore: @unchecked Sendable {
    let handler: any HTTPHandler
    let configuration: DevelopmentHTTPServer.Configuration
    let gate: RequestGate
    let connections: ConnectionTable
    private var sweeper: DeadlineSweeper?

    /// Held while the daemon starts, so a request accepted before the port is known waits for it.
    private let originLock = NSLock()
    private var origin: String?

    /// Request contexts alive now: each is released when libmicrohttpd reports its request
    /// complete, so this is 0 once the server has stopped.
    let liveRequests = LiveCount()

    private let pendingLock = NSLock()
    private var stopping = false
    private var pending: [ObjectIdentifier: PendingAnswer] = [:]

    init(handler: any HTTPHandler, configuration: DevelopmentHTTPServer.Configuration) {
      self.handler = handler
      self.configuration = configuration
      gate = RequestGate(
        publicOrigin: configuration.publicOrigin, trustedProxies: configuration.trustedProxies,
        policies: handler as? any HTTPEndpointPolicyProviding)
      connections = ConnectionTable(
        perClient: configuration.maxConnectionsPerClient,
        trustedProxies: configuration.trustedProxies, headDeadline: configuration.headDeadline,
        bodyDeadline: configuration.bodyDeadline)
    }

    // MARK: Start and stop

    /// Starts a daemon on the configured address and `port` and returns it with its bound port.
    func start(port: UInt16) throws(HTTPError) -> (daemon: OpaquePointer, port: UInt16) {
      pendingLock.lock()
      stopping = false
      pendingLock.unlock()

      originLock.lock()
      let listen = configuration.address
      let retained = Unmanaged.passRetained(self)
      var flags =
        MHD_USE_AUTO.rawValue | MHD_USE_INTERNAL_POLLING_THREAD.rawValue
        | MHD_USE_THREAD_PER_CONNECTION.rawValue
      if listen.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
      errno = 0
      let daemon = Self.withSocketAddress(listen, port: port) { address in
        let options = self.options(cls: retained.toOpaque(), address: address)
        return options.withUnsafeBufferPointer { options in
          dc_mhd_start(
            flags, acceptPolicy, accessHandler, retained.toOpaque(), options.baseAddress)
        }
      }
      let startErrno = errno
      let shown = listen.isIPv6 ? "[\(listen)]" : "\(listen)"
      guard let daemon else {
        originLock.unlock()
        retained.release()
        throw HTTPError(
          .serverStartFailed, "libmicrohttpd could not listen on \(shown):\(port)",
          underlying: POSIXErrorCode(rawValue: startErrno).map { POSIXError($0) })
      }
      let bound = dc_mhd_bound_port(daemon)
      origin = configuration.publicOrigin?.description ?? "http://\(shown):\(bound)"
      originLock.unlock()
      guard bound != 0 else {
        stop(daemon)
        throw HTTPError(.serverStartFailed, "libmicrohttpd did not report the bound port")
      }
      sweeper = DeadlineSweeper(connections)
      return (daemon, bound)
    }

    /// Runs `body` with a `sockaddr_in` or `sockaddr_in6` for `address`:`port`.
    private static func withSocketAddress<T>(
      _ address: IPAddress, port: UInt16, _ body: (UnsafeMutableRawPointer) -> T
    ) -> T {
      if address.isIPv6 {
        var socket = sockaddr_in6()
        socket.sin6_family = sa_family_t(AF_INET6)
        socket.sin6_port = port.bigEndian
        withUnsafeMutableBytes(of: &socket.sin6_addr) { $0.copyBytes(from: address.bytes) }
        return withUnsafeMutablePointer(to: &socket) { body(UnsafeMutableRawPointer($0)) }
      }
      var socket = sockaddr_in()
      socket.sin_family = sa_family_t(AF_INET)
      socket.sin_port = port.bigEndian
      withUnsafeMutableBytes(of: &socket.sin_addr) { $0.copyBytes(from: address.bytes) }
      return withUnsafeMutablePointer(to: &socket) { body(UnsafeMutableRawPointer($0)) }
    }

    /// libmicrohttpd's options for this server (`MHD_OPTION_ARRAY`, ending with `MHD_OPTION_END`).
    private func options(cls: UnsafeMutableRawPointer, address: UnsafeMutableRawPointer)
      -> [MHD_OptionItem]
    {
      func item(_ option: MHD_OPTION, _ value: Int, _ pointer: UnsafeMutableRawPointer? = nil)
        -> MHD_OptionItem
      {
        MHD_OptionItem(option: option, value: value, ptr_value: pointer)
      }
      return [
        item(.SOCK_ADDR, 0, address),
        item(.CONNECTION_LIMIT, Int(configuration.maxConnections)),
        item(.CONNECTION_TIMEOUT, Int(configuration.connectionTimeout)),
        item(.CONNECTION_MEMORY_LIMIT, max(configuration.connectionMemoryLimit, 4096)),
        // Refuse what RFC 9112 forbids (spaces in the target, obsolete line folding, ...).
        item(.STRICT_FOR_CLIENT, 1),
        item(.URI_LOG_CALLBACK, unsafeBitCast(requestStarted, to: Int.self), cls),
        item(.NOTIFY_COMPLETED, unsafeBitCast(requestCompleted, to: Int.self), cls),
        item(.NOTIFY_CONNECTION, unsafeBitCast(connectionChanged, to: Int.self), cls),
        item(.END, 0),
      ]
    }

    /// Answers every waiting request 503, then stops the daemon (joining its threads) and drops
    /// the daemon's retain on this object.
    func stop(_ daemon: OpaquePointer) {
      pendingLock.lock()
      stopping = true
      let waiting = Array(pending.values)
      pendingLock.unlock()
      for answer in waiting { answer.abandon() }
      MHD_stop_daemon(daemon)
      sweeper?.stop()
      sweeper = nil
      Unmanaged.passUnretained(self).release()
    }

    // MARK: Requests

    /// libmicrohttpd's access handler for one call: the head (first call), a body chunk, or the
    /// end of the request (a call with no upload data after the head).
    func handle(
      _ connection: OpaquePointer, _ request: RequestState, method: String,
      upload: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>?
    ) -> MHD_Result {
      if !request.headSeen {
        request.headSeen = true
        return admitHead(connection, request, method: method)
      }

      if let uploadSize, uploadSize.pointee > 0 {
        let size = uploadSize.pointee
        uploadSize.pointee = 0
        guard let upload, size <= configuration.maxRequestBodyBytes - request.body.count else {
          // Past the limit mid-body (a chunked body): answer 413 if libmicrohttpd still takes a
          // response, otherwise close the connection; either way nothing more is read or kept.
          return reject(413, request, connection)
        }
        upload.withMemoryRebound(to: UInt8.self, capacity: size) {
          request.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: size))
        }
        return .YES
      }

      request.connection.map { connections.enter($0, .answering) }
      guard let url = requestURL(request.target) else {
        return queue(HTTPResponse(status: 400), on: connection)
      }
      let httpRequest = HTTPRequest(
        method: HTTPMethod(method), url: url, headers: request.headers, body: request.body)
      request.body = []
      var response = answer(httpRequest)
      if let corsOrigin = request.corsOrigin,
        response.headers["Access-Control-Allow-Origin"] == nil
      {
        // Fetch §3.2.3: the page at corsOrigin may read this response; caches key on Origin.
        response.headers.append(name: "Access-Control-Allow-Origin", value: corsOrigin)
        response.headers.append(name: "Vary", value: "Origin")
      }
      return queue(response, on: connection)
    }

    /// The request head is in: limits, framing, `Host`, origin and media type are checked before
    /// a byte of the body is read (``RequestGate``); then the body's deadline starts.
    private func admitHead(_ connection: OpaquePointer, _ request: RequestState, method: String)
      -> MHD_Result
    {
      let count = MHD_get_connection_values_n(connection, .HEADER_KIND, nil, nil)
      if count > configuration.maxHeaderCount {
        return reject(431, request, connection)
      }
      request.headers = headers(of: connection)
      let path = String(request.target.prefix { $0 != "?" })
      let head = RequestHead(
        method: HTTPMethod(method), path: path, headers: request.headers,
        peer: request.connection?.peer)
      switch gate.decide(head) {
      case .refuse(let refusal):
        return reject(refusal.status, request, connection)
      case .preflight(let response):
        request.connection.map { connections.enter($0, .answering) }
        return queue(response, on: connection)
      case .proceed(let client, _, let corsOrigin):
        if let client {
          guard connections.acquire(forwarded: client) else {
            return reject(HTTPRefusal.tooManyFromClient.status, request, connection)
          }
          request.onEnd = { [connections] in connections.release(forwarded: client) }
        }
        request.corsOrigin = corsOrigin
      }
      if let declared = request.headers["Content-Length"],
        let length = UInt64(declared.trimmingSpaces),
        length > UInt64(max(configuration.maxRequestBodyBytes, 0))
      {
        // Queued before the body is read: libmicrohttpd closes the read side and never reads it.
        return reject(413, request, connection)
      }
      request.connection.map { connections.enter($0, .body) }
      return .YES
    }

    /// Answers `status` before the request ends and forgets its body.
    /// libmicrohttpd calls the access handler no more for a request once it has a response
    /// (`MHD_queue_response` moves the connection past reading).
    private func reject(_ status: Int, _ request: RequestState, _ connection: OpaquePointer)
      -> MHD_Result
    {
      request.body = []
      request.connection.map { connections.enter($0, .answering) }
      return queue(HTTPResponse(status: status), on: connection)
    }

    /// `http://127.0.0.1:PORT` + `target`, when `target` is origin-form (RFC 9112 §3.2.1): it
    /// starts with "/" and holds only visible ASCII.
    private func requestURL(_ target: String) -> URL? {
      originLock.lock()
      let origin = self.origin
      originLock.unlock()
      guard let origin, target.utf8.first == UInt8(ascii: "/"),
        target.utf8.allSatisfy({ (0x21...0x7E).contains($0) })
      else { return nil }
      return URL(string: origin + target)
    }

    /// Every header field line of the request, in order.
    private func headers(of connection: OpaquePointer) -> HTTPFields {
      let collector = HeaderCollector()
      withExtendedLifetime(collector) {
        _ = MHD_get_connection_values_n(
          connection, .HEADER_KIND, collectHeader,
          Unmanaged.passUnretained(collector).toOpaque())
      }
      return HTTPFields(collector.fields)
    }

    /// Runs the handler on Swift's concurrency pool and waits for it on this (libmicrohttpd's)
    /// thread, at most the handler timeout; 503 when it does not answer in time or the server stops.
    private func answer(_ request: HTTPRequest) -> HTTPResponse {
      let answer = PendingAnswer()
      pendingLock.lock()
      guard !stopping else {
        pendingLock.unlock()
        return HTTPResponse(status: 503)
      }
      pending[ObjectIdentifier(answer)] = answer
      pendingLock.unlock()
      defer {
        pendingLock.lock()
        pending[ObjectIdentifier(answer)] = nil
        pendingLock.unlock()
      }

      let handler = self.handler
      let task = Task(executorPreference: HandlerExecutor.shared) {
        answer.complete(await handler.handle(request))
      }
      if let response = answer.wait(seconds: configuration.handlerTimeout) { return response }
      task.cancel()
      return HTTPResponse(status: 503)
    }

    /// Queues `response` on `connection`. A response libmicrohttpd refuses to build (a status
    /// outside 100-599, a header field it cannot send) becomes 500; `Content-Length` and
    /// `Transfer-Encoding` are libmicrohttpd's to set and are left out.
    private func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> MHD_Result {
      if let built = build(response) {
        defer { MHD_destroy_response(built.response) }
        return MHD_queue_response(connection, built.status, built.response)
      }
      guard let fallback = build(HTTPResponse(status: 500)) else { return .NO }
      defer { MHD_destroy_response(fallback.response) }
      return MHD_queue_response(connection, fallback.status, fallback.response)
    }

    private func build(_ response: HTTPResponse) -> (response: OpaquePointer, status: UInt32)? {
      guard (100...599).contains(response.status) else { return nil }
      let built = response.body.withUnsafeBytes { body in
        MHD_create_response_from_buffer(
          body.count, UnsafeMutableRawPointer(mutating: body.baseAddress), .RESPMEM_MUST_COPY)
      }
      guard let built else { return nil }
      for field in response.headers {
        let name = field.name.lowercased()
        if name == "content-length" || name == "transfer-encoding" { continue }
        guard isToken(field.name),
          !field.value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }),
          MHD_add_response_header(built, field.name, field.value) == .YES
        else {
          MHD_destroy_response(built)
          return nil
        }
      }
      return (built, UInt32(response.status))
    }
  }

  /// Where handler tasks run: an overcommitting dispatch queue, not Swift's width-limited
  /// concurrency pool, so handlers keep running while the app's pool is busy or blocked (the
  /// connection thread waiting for them is not a pool thread either). Code a handler runs on an
  /// actor still runs on that actor.
  final class HandlerExecutor: TaskExecutor, @unchecked Sendable {
    static let shared = HandlerExecutor()
    private let queue = DispatchQueue(
      label: "DevelopmentHTTPServer.handlers", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
      let job = UnownedJob(job)
      let executor = asUnownedTaskExecutor()
      queue.async { job.runSynchronously(on: executor) }
    }
  }

  /// One request's state, from its request line to its end: the target as received, and the
  /// body so far (never more than the limit). Touched only by its connection's thread.
  final class RequestState {
    private let live: LiveCount
    let target: String
    /// The connection's entry in the server's table (nil if libmicrohttpd reported none).
    let connection: ConnectionTable.Entry?
    var headSeen = false
    var headers = HTTPFields()
    var body: [UInt8] = []
    /// The other origin the response lets read it (CORS), if any.
    var corsOrigin: String?
    /// Run when the request ends (releases its count in the per-client cap).
    var onEnd: (() -> Void)?

    init(target: String, connection: ConnectionTable.Entry?, live: LiveCount) {
      self.target = target
      self.connection = connection
      self.live = live
      live.add(1)
    }

    deinit {
      onEnd?()
      live.add(-1)
    }
  }

  /// A count shared across threads.
  final class LiveCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add(_ delta: Int) { lock.withLock { count += delta } }
    var value: Int { lock.withLock { count } }
  }

  /// A handler's answer, handed from the Swift task to the waiting connection thread.
  final class PendingAnswer: @unchecked Sendable {
    private let lock = NSLock()
    private let ready = DispatchSemaphore(value: 0)
    private var response: HTTPResponse?

    func complete(_ response: HTTPResponse) {
      lock.lock()
      self.response = response
      lock.unlock()
      ready.signal()
    }

    /// Wakes the waiter with no answer (the server is stopping).
    func abandon() { ready.signal() }

    func wait(seconds: TimeInterval) -> HTTPResponse? {
      _ = ready.wait(timeout: .now() + seconds)
      lock.lock()
      defer { lock.unlock() }
      return response
    }
  }

  /// The header fields libmicrohttpd's iterator reports, in order.
  final class HeaderCollector {
    var fields: [HTTPFields.Field] = []
  }

  /// Whether `text` is an RFC 9110 §5.6.2 token.
  func isToken(_ text: String) -> Bool {
    !text.isEmpty
      && text.utf8.allSatisfy { byte in
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
          UInt8(ascii: "A")...UInt8(ascii: "Z"):
          return true
        default: return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
      }
  }

  // MARK: libmicrohttpd callbacks (C function pointers: no captures, context through `cls`)

  /// `MHD_AccessHandlerCallback`: finds the server and the request, and hands the call on.
  private let accessHandler: MHD_AccessHandlerCallback = {
    cls, connection, _, method, _, upload, uploadSize, requestContext in
    guard let cls, let connection, let method, let context = requestContext?.pointee else {
      return .NO
    }
    let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
    let request = Unmanaged<RequestState>.fromOpaque(context).takeUnretainedValue()
    return core.handle(
      connection, request, method: String(cString: method), upload: upload,
      uploadSize: uploadSize)
  }

  /// `MHD_OPTION_URI_LOG_CALLBACK`: called once per request with the raw request target, before
  /// libmicrohttpd splits off and decodes the query; its result is the request's context.
  private let requestStarted:
    @convention(c) (
      UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?
    ) -> UnsafeMutableRawPointer? = { cls, uri, connection in
      guard let cls else { return nil }
      let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
      let target = uri.map { String(cString: $0) } ?? ""
      let entry = connection.flatMap(connectionEntry)
      return Unmanaged.passRetained(
        RequestState(target: target, connection: entry, live: core.liveRequests)
      ).toOpaque()
    }

  /// `MHD_OPTION_NOTIFY_COMPLETED`: releases the request's context. libmicrohttpd calls it for
  /// every request whose target it reported (the URI log callback marks the connection).
  /// The connection's head deadline starts again: the next request's head is due.
  private let requestCompleted: MHD_RequestCompletedCallback = {
    cls, connection, requestContext, _ in
    if let cls, let entry = connection.flatMap(connectionEntry) {
      Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue().connections.enter(entry, .head)
    }
    guard let requestContext, let context = requestContext.pointee else { return }
    requestContext.pointee = nil
    Unmanaged<RequestState>.fromOpaque(context).release()
  }

  /// The table entry libmicrohttpd keeps as the connection's socket context.
  private func connectionEntry(_ connection: OpaquePointer) -> ConnectionTable.Entry? {
    dc_mhd_socket_context(connection).map {
      Unmanaged<ConnectionTable.Entry>.fromOpaque($0).takeUnretainedValue()
    }
  }

  /// `MHD_AcceptPolicyCallback`: refuses a connection past the per-client cap.
  private let acceptPolicy: MHD_AcceptPolicyCallback = { cls, address, _ in
    guard let cls else { return .NO }
    let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
    return core.connections.admits(address.flatMap(IPAddress.init(socketAddress:))) ? .YES : .NO
  }

  /// `MHD_NotifyConnectionCallback`: records a connection in the table when it starts (its
  /// entry, retained, becomes the socket context) and forgets it when it closes.
  private let connectionChanged: MHD_NotifyConnectionCallback = {
    cls, connection, socketContext, event in
    guard let cls, let connection, let socketContext else { return }
    let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
    switch event.rawValue {
    case 0:  // MHD_CONNECTION_NOTIFY_STARTED
      let peer = dc_mhd_client_address(connection).flatMap(IPAddress.init(socketAddress:))
      let entry = core.connections.opened(
        socket: dc_mhd_connection_socket(connection), peer: peer)
      socketContext.pointee = Unmanaged.passRetained(entry).toOpaque()
    default:
      guard let context = socketContext.pointee else { return }
      socketContext.pointee = nil
      let entry = Unmanaged<ConnectionTable.Entry>.fromOpaque(context)
      core.connections.closed(entry.takeUnretainedValue())
      entry.release()
    }
  }

  /// `MHD_KeyValueIteratorN`: appends one header field line to the collector.
  private let collectHeader: MHD_KeyValueIteratorN = { cls, _, key, keySize, value, valueSize in
    guard let cls, let key else { return .YES }
    let collector = Unmanaged<HeaderCollector>.fromOpaque(cls).takeUnretainedValue()
    let name = key.withMemoryRebound(to: UInt8.self, capacity: keySize) {
      String(decoding: UnsafeBufferPointer(start: $0, count: keySize), as: UTF8.self)
    }
    let text =
      value.map { value in
        value.withMemoryRebound(to: UInt8.self, capacity: valueSize) {
          String(decoding: UnsafeBufferPointer(start: $0, count: valueSize), as: UTF8.self)
        }
      } ?? ""
    collector.fields.append(HTTPFields.Field(name: name, value: text))
    return .YES
  }
#endif
