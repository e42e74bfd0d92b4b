@_exported public import DCErrors
import DCMdoc
public import DCMdocProximity
public import DCProximityTransport

/// What the holder decides for one in-person request, as the consent screen returns it.
public enum InPersonDecision: Sendable {
  /// Share what the consent names (see `PresentationRequest.consent(_:)`).
  case share(PresentationConsent)
  /// Do not answer; the reason is kept for the log and the caller, never sent to the reader.
  case decline(reason: String)
}

/// An error that ended an in-person session before the reader terminated it: the transport
/// failed or closed, or the session layer refused a message.
public typealias InPersonSessionError = DCError<InPersonSessionErrorCode>

/// What kind of failure this is.
public struct InPersonSessionErrorCode: DCErrorCode {
  let name: String
  private init(_ name: String) { self.name = name }
  /// The code's name.
  public var description: String { name }

  /// The transport failed, or the peer closed the connection without ending the session
  /// (a closed socket alone is no termination, ISO 18013-5 §9.1.1.4).
  public static let transport = Self("transport")
  /// A message was refused by the session layer (its status, if any, was sent first).
  public static let session = Self("session")
  /// The other side sent more requests than the holder answers in one session.
  public static let tooManyRequests = Self("tooManyRequests")
}

/// Runs the holder's side of a whole ISO 18013-5 in-person session over any `SessionTransport`
/// (DCProximityTransport): the engagement is already shown (`HolderSession.uri`); the driver
/// reads the SessionEstablishment and each SessionData, resolves every DeviceRequest through the
/// wallet's presentation model (the same ``PresentationRequest`` as a DC API request), asks the
/// consent callback, answers with the consented documents, and returns when the reader ends the
/// session (status 20, §9.1.1.4).
///
/// A refusal (the policy, no matching credential, a request that does not decode, the holder
/// declining, a response that cannot be made) is always sent: a DeviceResponse without
/// documents and with its status (§8.3.2.1.2.3: 10, 11 or 12), together with status 20, which
/// ends the session; ``Outcome/refusal`` then says why. A message the session layer refuses is
/// answered with its SessionData status (10 or 11), then an ``InPersonSessionError`` with the
/// code `session` is thrown.
public struct InPersonHolder: Sendable {
  /// Why the holder did not answer a request; the status was sent to the reader.
  public struct RefusalSent: Sendable {
    /// The reason, for the holder (never sent).
    public let reason: String
    /// The DeviceResponse status sent (ISO 18013-5 §8.3.2.1.2.3, Table 8).
    public let status: Int
    /// The wallet's typed refusals, when the wallet refused (empty for a decline).
    package let refusals: [Refusal]
  }

  /// How a session ended without an error.
  public struct Outcome: Sendable {
    /// The requests answered with documents, in order.
    public let answered: [PresentationRequest]
    /// The refusal that ended the session, or nil when the reader terminated it.
    public let refusal: RefusalSent?
    /// Whether the reader ended the session together with a request it then got no answer to
    /// (a SessionData with data and status 20).
    package let lastRequestUnanswered: Bool
  }

  /// The wallet that answers.
  public let wallet: Wallet
  /// The policy for every request of the session (nil: the wallet's).
  package let policy: WalletPolicy?
  /// The most requests answered in one session; one more is refused with
  /// ``InPersonSessionErrorCode/tooManyRequests`` (every loop is bounded).
  package let maxRequests: Int

  /// A driver for `wallet`.
  public init(wallet: Wallet, policy: WalletPolicy? = nil, maxRequests: Int = 16) {
    self.wallet = wallet
    self.policy = policy
    self.maxRequests = max(1, maxRequests)
  }

  /// Runs the session to its end and closes the transport.
  ///
  /// - Parameters:
  ///   - session: the holder's session whose engagement the reader read (not yet established).
  ///   - transport: the connection to the reader.
  ///   - consent: asked once per resolved request.
  /// - Throws: ``InPersonSessionError`` when the transport fails or closes before the reader
  ///   terminates, or the session layer refuses a message (its status sent first).
  public func run(
    session: HolderSession, transport: any SessionTransport,
    consent: @Sendable (PresentationRequest) async -> InPersonDecision
  ) async throws(InPersonSessionError) -> Outcome {
    do {
      let outcome = try await exchange(session: session, transport: transport, consent: consent)
      await transport.close()
      return outcome
    } catch {
      await transport.close()
      throw error
    }
  }

  private func exchange(
    session: HolderSession, transport: any SessionTransport,
    consent: @Sendable (PresentationRequest) async -> InPersonDecision
  ) async throws(InPersonSessionError) -> Outcome {
    var session = session
    var answered: [PresentationRequest] = []
    // One receive per request, plus the termination: bounded by maxRequests + 1.
    for _ in 0...maxRequests {
      let event = try await receiveEvent(session: &session, transport: transport)
      let request: [UInt8]
      switch event {
      case .terminated:
        return Outcome(answered: answered, refusal: nil, lastRequestUnanswered: false)
      case .finalMessage:
        // The reader ended the session with this request: nothing can be sent back.
        return Outcome(answered: answered, refusal: nil, lastRequestUnanswered: true)
      case .message(let bytes):
        request = bytes
      }
      guard answered.count < maxRequests else {
        if let abort = session.abort(with: .sessionEncryptionError) {
          try? await transport.send(abort)
        }
        throw InPersonSessionError(
          .tooManyRequests, "the reader sent more than \(maxRequests) requests in one session")
      }
      guard let transcript = session.transcript else {
        throw InPersonSessionError(.session, "the session has no SessionTranscript")
      }
      guard
        let refusal = try await answer(
          request, sessionTranscript: transcript, session: &session, transport: transport,
          consent: consent, answered: &answered)
      else { continue }
      // A refusal is always sent (a DeviceResponse with its status), and ends the session.
      try await send(
        ProximityPresentation.refusalResponse(status: refusal.status), ending: true,
        session: &session, transport: transport)
      return Outcome(answered: answered, refusal: refusal, lastRequestUnanswered: false)
    }
    throw InPersonSessionError(
      .tooManyRequests, "the reader sent more than \(maxRequests) requests in one session")
  }

  /// The next message from the reader, decrypted; a message the session refuses gets its
  /// status sent back when it has one.
  private func receiveEvent(
    session: inout HolderSession, transport: any SessionTransport
  ) async throws(InPersonSessionError) -> SessionEvent {
    let message: [UInt8]
    do {
      message = try await transport.receive()
    } catch {
      throw InPersonSessionError(
        .transport,
        error.code == .peerClosed
          ? "the reader closed the connection without ending the session"
          : "the transport failed: \(error.reason)", underlying: error)
    }
    do {
      return try session.receive(message)
    } catch {
      if let status = error.statusMessage { try? await transport.send(status) }
      throw InPersonSessionError(.session, error.reason, underlying: error)
    }
  }

  /// Resolves a request and asks for consent: a shared request is answered (and added to
  /// `answered`), giving nil; otherwise the refusal to send.
  private func answer(
    _ request: [UInt8], sessionTranscript transcript: SessionTranscript,
    session: inout HolderSession,
    transport: any SessionTransport,
    consent: @Sendable (PresentationRequest) async -> InPersonDecision,
    answered: inout [PresentationRequest]
  ) async throws(InPersonSessionError) -> RefusalSent? {
    let refusal: RefusalSent
    do {
      let resolved = try await wallet.resolveInPerson(
        deviceRequest: request, sessionTranscript: transcript, policy: policy)
      switch await consent(resolved) {
      case .decline(let reason):
        await wallet.logRefusal(resolved, reason: reason)
        refusal = RefusalSent(
          reason: reason, status: DeviceResponse.statusGeneralError, refusals: [])
      case .share(let presentationConsent):
        let response = try await wallet.respondInPerson(
          to: resolved, consent: presentationConsent)
        try await send(response, ending: false, session: &session, transport: transport)
        answered.append(resolved)
        return nil
      }
    } catch let error as WalletError {
      refusal = RefusalSent(
        reason: error.reason, status: ProximityPresentation.status(for: error),
        refusals: error.refusals)
    } catch let error as InPersonSessionError {
      throw error
    } catch {
      refusal = RefusalSent(
        reason: "\(error)", status: DeviceResponse.statusGeneralError, refusals: [])
    }
    return refusal
  }

  private func send(
    _ response: [UInt8], ending: Bool, session: inout HolderSession,
    transport: any SessionTransport
  ) async throws(InPersonSessionError) {
    let message: [UInt8]
    do {
      message = try session.send(response: response, endingSession: ending)
    } catch {
      throw InPersonSessionError(.session, error.reason, underlying: error)
    }
    do {
      try await transport.send(message)
    } catch {
      throw InPersonSessionError(
        .transport, "the response could not be sent: \(error.reason)", underlying: error)
    }
  }
}
