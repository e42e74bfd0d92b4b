import DCProximityTransport
import DCTestSupport
import Foundation
import Testing

/// Both devices in both modes over the in-memory link pair: the message layer of ISO/IEC
/// 18013-5 §8.3.3.1.1 end to end, and each refusal.
@Suite struct BLEGATTTransportTests {
  static let eDeviceKeyBytes = hexBytes(
    "d818584ba4010220012158205a88d182bce5f42efa59943f33359d2e8a968ff289d93e5fa444b624343167fe225820b16e8cf858ddc7690407ba61d4c338237a8cfcf3de6aa672fc60a557aa32fc67"
  )

  struct Pair {
    let mdoc: BLEGATTTransport
    let reader: BLEGATTTransport
    let server: FakeBLELink
    let client: FakeBLELink
    let serverTransport: BLEGATTTransport
    let clientTransport: BLEGATTTransport
  }

  static func pair(
    _ mode: BLEMode, valueLength: Int = 182, limits: TransportLimits = .standard,
    timeouts: BLEGATTTransport.Timeouts = .init(start: .seconds(10), receive: .seconds(10)),
    readerKeyBytes: [UInt8]? = nil
  ) throws -> Pair {
    let links = FakeBLELink.pair(maximumValueLength: valueLength)
    let mdocIsServer = mode.isGATTServer(.mdoc)
    let mdoc = try BLEGATTTransport(
      side: .mdoc, mode: mode, link: mdocIsServer ? links.server : links.client,
      eDeviceKeyBytes: eDeviceKeyBytes, limits: limits, timeouts: timeouts)
    let reader = try BLEGATTTransport(
      side: .mdocReader, mode: mode, link: mdocIsServer ? links.client : links.server,
      eDeviceKeyBytes: readerKeyBytes ?? eDeviceKeyBytes, limits: limits, timeouts: timeouts)
    (mdocIsServer ? links.server : links.client).attach(mdoc)
    (mdocIsServer ? links.client : links.server).attach(reader)
    return Pair(
      mdoc: mdoc, reader: reader, server: links.server, client: links.client,
      serverTransport: mdocIsServer ? mdoc : reader, clientTransport: mdocIsServer ? reader : mdoc)
  }

  static func opened(_ pair: Pair) async throws -> Pair {
    async let serverOpen: Void = pair.serverTransport.open()
    try await pair.clientTransport.open()
    try await serverOpen
    return pair
  }

  static func code(_ body: () async throws -> some Any) async -> TransportErrorCode? {
    do {
      _ = try await body()
      return nil
    } catch {
      guard let error = error as? TransportError else {
        Issue.record("not a TransportError: \(error)")
        return nil
      }
      return error.code
    }
  }

  static func message(_ size: Int, _ seed: UInt8) -> [UInt8] {
    (0..<size).map { UInt8(truncatingIfNeeded: $0) &+ seed }
  }

  // MARK: Round trips

  @Test(arguments: [BLEMode.mdocPeripheralServer, .mdocCentralClient])
  func messagesBothWays(_ mode: BLEMode) async throws {
    let pair = try await Self.opened(Self.pair(mode, valueLength: 20))
    // The reader speaks first (SessionEstablishment), then the two take turns.
    for round in 0..<3 {
      let request = Self.message(1000 + round, UInt8(round))
      try await pair.reader.send(request)
      #expect(try await pair.mdoc.receive() == request)
      let response = Self.message(50_000 + round, UInt8(round + 100))
      try await pair.mdoc.send(response)
      #expect(try await pair.reader.receive() == response)
    }
    // Two messages in a row wait in order.
    try await pair.reader.send([1])
    try await pair.reader.send([2, 2])
    #expect(try await pair.mdoc.receive() == [1])
    #expect(try await pair.mdoc.receive() == [2, 2])
  }

  @Test(arguments: [BLEMode.mdocPeripheralServer, .mdocCentralClient])
  func theClientSubscribesThenWritesStartOnTheModesCharacteristics(_ mode: BLEMode) async throws {
    let pair = try await Self.opened(Self.pair(mode, valueLength: 20))
    var expected: [FakeBLELink.Action] = [
      .subscribe(.state), .subscribe(.server2Client), .send([0x01], .state),
    ]
    if mode == .mdocCentralClient { expected.insert(.read(.ident), at: 0) }
    #expect(pair.client.actions == expected)
    try await pair.clientTransport.send(Self.message(40, 1))
    try await pair.serverTransport.send(Self.message(40, 2))
    let chunks = pair.client.actions.dropFirst(expected.count)
    #expect(
      Array(chunks) == [
        .send([0x01] + Self.message(19, 1), .client2Server),
        .send([0x01] + Array(Self.message(40, 1)[19..<38]), .client2Server),
        .send([0x00] + Array(Self.message(40, 1)[38...]), .client2Server),
      ])
    #expect(pair.server.actions.count == 3)
    #expect(
      pair.server.actions.allSatisfy {
        if case .send(_, .server2Client) = $0 { true } else { false }
      })
  }

  @Test func theLargestAttributeValueIsUsedWhenTheLinkAllowsMore() async throws {
    let pair = try await Self.opened(Self.pair(.mdocPeripheralServer, valueLength: 514))
    try await pair.mdoc.send(Self.message(1024, 3))
    #expect(try await pair.reader.receive() == Self.message(1024, 3))
    #expect(
      pair.server.actions.map { if case .send(let v, _) = $0 { v.count } else { 0 } } == [
        512, 512, 3,
      ])
  }

  // MARK: Ident (central client mode)

  @Test func aReaderWithAnotherIdentIsRefused() async throws {
    var other = Self.eDeviceKeyBytes
    other[other.count - 1] ^= 1
    let pair = try Self.pair(.mdocCentralClient, readerKeyBytes: other)
    #expect(pair.reader.identValue != pair.mdoc.identValue)
    #expect(await Self.code { try await pair.mdoc.open() } == .identMismatch)
    #expect(pair.client.actions == [.read(.ident), .disconnect])
    #expect(await Self.code { try await pair.mdoc.send([1]) } == .identMismatch)
  }

  @Test func theIdentIsTheHKDFOfTheEngagementKey() throws {
    let pair = try Self.pair(.mdocCentralClient)
    #expect(pair.mdoc.identValue == (try BLEIdent.value(eDeviceKeyBytes: Self.eDeviceKeyBytes)))
    #expect(pair.reader.identValue == pair.mdoc.identValue)
    #expect(try Self.pair(.mdocPeripheralServer).mdoc.identValue == nil)
    let protocolViolationError = #expect(throws: TransportError.self) {
      try BLEGATTTransport(side: .mdoc, mode: .mdocCentralClient, link: FakeBLELink.pair().client)
    }
    #expect(protocolViolationError?.code == .protocolViolation)
  }

  // MARK: State characteristic

  @Test func chunksBeforeStartAreRefused() async throws {
    let pair = try Self.pair(.mdocPeripheralServer)
    pair.server.deliver(.value([0x00, 1], on: .client2Server))
    #expect(await Self.code { try await pair.mdoc.receive() } == .protocolViolation)
  }

  @Test func aSecondStartIsRefused() async throws {
    let pair = try await Self.opened(Self.pair(.mdocPeripheralServer))
    pair.server.deliver(.value([0x01], on: .state))
    #expect(await Self.code { try await pair.mdoc.receive() } == .protocolViolation)
  }

  @Test(arguments: [[UInt8](), [0x03], [0x01, 0x01], [0x00]])
  func anUnknownStateValueIsRefused(_ value: [UInt8]) async throws {
    let server = try await Self.opened(Self.pair(.mdocPeripheralServer))
    server.server.deliver(.value(value, on: .state))
    #expect(await Self.code { try await server.mdoc.receive() } == .protocolViolation)
    // The GATT server may notify End only.
    let client = try await Self.opened(Self.pair(.mdocPeripheralServer))
    client.client.deliver(.value(value.isEmpty ? [0x01] : value, on: .state))
    #expect(await Self.code { try await client.reader.receive() } == .protocolViolation)
  }

  @Test func valuesOnTheWrongCharacteristicAreRefused() async throws {
    let server = try await Self.opened(Self.pair(.mdocCentralClient))
    server.server.deliver(.value([0x00, 1], on: .server2Client))
    #expect(await Self.code { try await server.reader.receive() } == .protocolViolation)
    let client = try await Self.opened(Self.pair(.mdocCentralClient))
    client.client.deliver(.value([0x00, 1], on: .client2Server))
    #expect(await Self.code { try await client.mdoc.receive() } == .protocolViolation)
    let ident = try await Self.opened(Self.pair(.mdocCentralClient))
    ident.server.deliver(.value([0x00, 1], on: .ident))
    #expect(await Self.code { try await ident.reader.receive() } == .protocolViolation)
  }

  @Test(arguments: [BLEMode.mdocPeripheralServer, .mdocCentralClient])
  func closeSendsEndAndThePeerSeesItAfterItsMessages(_ mode: BLEMode) async throws {
    let pair = try await Self.opened(Self.pair(mode))
    try await pair.mdoc.send([7, 7])
    await pair.mdoc.close()
    #expect(try await pair.reader.receive() == [7, 7])
    #expect(await Self.code { try await pair.reader.receive() } == .peerClosed)
    let mdocLink = mode.isGATTServer(.mdoc) ? pair.server : pair.client
    #expect(mdocLink.actions.suffix(2) == [.send([0x02], .state), .disconnect])
    #expect(await Self.code { try await pair.mdoc.receive() } == .closed)
    #expect(await Self.code { try await pair.mdoc.send([1]) } == .closed)
    await pair.mdoc.close()
    #expect(mdocLink.actions.filter { $0 == .send([0x02], .state) }.count == 1)
  }

  @Test func aDisconnectInTheMiddleOfAMessageIsTruncation() async throws {
    let pair = try await Self.opened(Self.pair(.mdocPeripheralServer))
    pair.server.deliver(.value([0x01, 1, 2], on: .client2Server))
    pair.server.deliver(.disconnected)
    #expect(await Self.code { try await pair.mdoc.receive() } == .truncatedMessage)

    let clean = try await Self.opened(Self.pair(.mdocPeripheralServer))
    clean.server.deliver(.disconnected)
    #expect(await Self.code { try await clean.mdoc.receive() } == .peerClosed)
  }

  // MARK: Limits and waits

  @Test func tooManyWaitingMessagesEndTheSession() async throws {
    let limits = TransportLimits(
      maxMessageBytes: 100, maxChunksPerMessage: 10, maxQueuedMessages: 2)
    let pair = try await Self.opened(Self.pair(.mdocPeripheralServer, limits: limits))
    try await pair.reader.send([1])
    try await pair.reader.send([2])
    #expect(try await pair.mdoc.receive() == [1])
    try await pair.reader.send([3])
    try await pair.reader.send([4])
    #expect(await Self.code { try await pair.mdoc.receive() } == .protocolViolation)
    // The link is disconnected by a task of its own: wait for it, at most 2 s.
    for _ in 0..<200 where !pair.server.isDown { try await Task.sleep(for: .milliseconds(10)) }
    #expect(pair.server.actions.last == .disconnect)
  }

  @Test func anOversizeMessageEndsTheSession() async throws {
    let limits = TransportLimits(
      maxMessageBytes: 100, maxChunksPerMessage: 100, maxQueuedMessages: 2)
    let pair = try await Self.opened(
      Self.pair(.mdocPeripheralServer, valueLength: 20, limits: limits))
    #expect(
      await Self.code { try await pair.reader.send(Self.message(101, 0)) } == .messageTooLarge)
    for index in 0..<5 {
      pair.server.deliver(.value([0x01] + Self.message(19, UInt8(index)), on: .client2Server))
    }
    pair.server.deliver(.value([0x01] + Self.message(19, 9), on: .client2Server))
    #expect(await Self.code { try await pair.mdoc.receive() } == .messageTooLarge)
  }

  @Test func receiveTimesOutAndStaysUsable() async throws {
    let pair = try await Self.opened(
      Self.pair(
        .mdocPeripheralServer, timeouts: .init(start: .seconds(5), receive: .milliseconds(200))))
    #expect(await Self.code { try await pair.mdoc.receive() } == .timedOut)
    try await pair.reader.send([5])
    #expect(try await pair.mdoc.receive() == [5])
  }

  @Test func theServerWaitsForStartAtMostItsTimeout() async throws {
    let pair = try Self.pair(
      .mdocPeripheralServer, timeouts: .init(start: .milliseconds(200), receive: .seconds(5)))
    #expect(await Self.code { try await pair.mdoc.open() } == .timedOut)
    // A Start that came before open() is taken.
    let early = try Self.pair(.mdocPeripheralServer)
    early.server.deliver(.value([0x01], on: .state))
    try await early.mdoc.open()
  }

  @Test func oneReceiveAndOneOpenWaitAtATime() async throws {
    let pair = try Self.pair(
      .mdocPeripheralServer, timeouts: .init(start: .milliseconds(500), receive: .milliseconds(500))
    )
    async let firstOpen = Self.code { try await pair.mdoc.open() }
    try await Task.sleep(for: .milliseconds(50))
    #expect(await Self.code { try await pair.mdoc.open() } == .closed)
    #expect(await firstOpen == .timedOut)

    let opened = try await Self.opened(
      Self.pair(
        .mdocPeripheralServer, timeouts: .init(start: .seconds(5), receive: .milliseconds(500))))
    async let firstReceive = Self.code { try await opened.mdoc.receive() }
    try await Task.sleep(for: .milliseconds(50))
    #expect(await Self.code { try await opened.mdoc.receive() } == .closed)
    #expect(await firstReceive == .timedOut)
  }

  @Test func sendingBeforeOpenIsRefused() async throws {
    let pair = try Self.pair(.mdocPeripheralServer)
    #expect(await Self.code { try await pair.mdoc.send([1]) } == .closed)
  }
}
