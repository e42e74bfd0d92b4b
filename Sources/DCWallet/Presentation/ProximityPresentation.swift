import DCAPI
import DCCBOR
import DCCrypto
package import DCMdoc
package import DCX509
package import Foundation

/// How the holder authenticates an in-person response (ISO 18013-5 §9.1.3), the
/// `inPersonDeviceAuthentication` of a ``WalletPolicy``.
///
/// A deviceMac (§9.1.3.5) needs ECDH with the device key and the reader's EReaderKey: a key
/// store whose backend cannot agree with the key (`DeviceKeyStore.keyAgreement(for:)` is nil, as
/// for an Apple Secure Enclave signing key), or a transcript without an EReaderKey, cannot make
/// one. `.mac` then refuses the response with
/// `WalletErrorCode.unsupportedDeviceAuthentication` (nothing is sent but the refusal status);
/// `.macElseSignature` signs instead.
public enum InPersonDeviceAuthentication: Sendable, Hashable {
  /// A deviceSignature (§9.1.3.6), always possible: the default.
  case signature
  /// A deviceMac (§9.1.3.5); refused when the device key cannot agree.
  case mac
  /// A deviceMac where the device key can agree, a deviceSignature otherwise.
  case macElseSignature
}

/// An ISO 18013-5 in-person request (a DeviceRequest decrypted by the session layer) resolved
/// against the wallet's mdocs for this session's transcript: the same doc requests, reader
/// authentication, candidates and consent checks as Annex C (`ResolvedDeviceRequest`), answered
/// with an unencrypted DeviceResponse for the session layer to encrypt (§9.1.1.4).
package struct ProximityPresentation: Sendable {
  /// The protocol identifier of in-person presentation, as ``WalletPolicy/allowedProtocols``
  /// and the activity log name it. Not a DC API protocol: no web page can send it.
  package static let protocolIdentifier = "iso-18013-5-proximity"

  /// The DeviceRequest resolved for this session's transcript.
  package let resolved: ResolvedDeviceRequest
  /// How the response will authenticate the device (from the policy at resolve time).
  package let deviceAuthentication: InPersonDeviceAuthentication

  /// The session's transcript: reader authentication and device authentication are bound to it.
  package var sessionTranscript: SessionTranscript { resolved.sessionTranscript }
  /// The DeviceRequest as received.
  package var deviceRequest: DeviceRequest { resolved.deviceRequest }

  /// Reads and resolves a decrypted DeviceRequest (versions 1.0 and 1.1, with DeviceRequestInfo
  /// use cases, readerAuth and readerAuthAll).
  ///
  /// - Throws: a `Refusal` with `undecodableRequest` when the bytes are not CBOR (status 11),
  ///   `invalidRequest` when they are not a valid DeviceRequest (status 12).
  package static func resolve(
    deviceRequest bytes: [UInt8], sessionTranscript: SessionTranscript,
    credentials: [StoredMdoc], readerTrustAnchors: [Certificate], now: Date,
    deviceAuthentication: InPersonDeviceAuthentication = .signature
  ) throws(Refusal) -> ProximityPresentation {
    let request = try decode(bytes)
    return try resolve(
      request: request, sessionTranscript: sessionTranscript, credentials: credentials,
      readerTrustAnchors: readerTrustAnchors, now: now,
      deviceAuthentication: deviceAuthentication)
  }

  /// Resolves an already decoded DeviceRequest (see ``decode(_:)``).
  package static func resolve(
    request: DeviceRequest, sessionTranscript: SessionTranscript,
    credentials: [StoredMdoc], readerTrustAnchors: [Certificate], now: Date,
    deviceAuthentication: InPersonDeviceAuthentication = .signature
  ) throws(Refusal) -> ProximityPresentation {
    do {
      return ProximityPresentation(
        resolved: try ResolvedDeviceRequest.resolve(
          deviceRequest: request, sessionTranscript: sessionTranscript, credentials: credentials,
          readerTrustAnchors: readerTrustAnchors, now: now),
        deviceAuthentication: deviceAuthentication)
    } catch {
      throw Refusal(
        protocolIdentifier: protocolIdentifier, code: .invalidRequest, reason: error.reason,
        underlying: error)
    }
  }

  /// Decodes a DeviceRequest, telling undecodable bytes (§8.3.2.1.2.3 status 11) from a
  /// structure that is not a valid DeviceRequest (status 12).
  package static func decode(_ bytes: [UInt8]) throws(Refusal) -> DeviceRequest {
    let cbor: CBOR
    do {
      cbor = try CBOR.decode(bytes)
    } catch {
      throw Refusal(
        protocolIdentifier: protocolIdentifier, code: .undecodableRequest,
        reason: "the DeviceRequest is not CBOR: \(error.reason)", underlying: error)
    }
    do {
      return try DeviceRequest(cbor: cbor)
    } catch {
      throw Refusal(
        protocolIdentifier: protocolIdentifier, code: .invalidRequest,
        reason: "not a valid DeviceRequest: \(error.reason)", underlying: error)
    }
  }

  /// The DeviceResponse status that answers a refusal (ISO 18013-5 §8.3.2.1.2.3): 11 (CBOR
  /// decoding error) for a request that is not CBOR, 12 (CBOR validation error) for one that is
  /// not a valid DeviceRequest, 10 (general error, no reason given) for anything else: a policy
  /// refusal, no matching credential, the holder declining.
  package static func status(for refusals: [Refusal]) -> Int {
    if refusals.contains(where: { $0.code == .undecodableRequest }) {
      return DeviceResponse.statusCBORDecodingError
    }
    if refusals.contains(where: { $0.code == .invalidRequest }) {
      return DeviceResponse.statusCBORValidationError
    }
    return DeviceResponse.statusGeneralError
  }

  /// The status for a wallet error (see ``status(for:)-([Refusal])``).
  package static func status(for error: WalletError) -> Int { status(for: error.refusals) }

  /// A DeviceResponse without documents, with a refusal status (§8.3.2.1.2.2): what the holder
  /// sends when it does not answer; the session layer encrypts it like any response.
  package static func refusalResponse(status: Int) -> [UInt8] {
    DeviceResponse(documents: [], status: status).bytes
  }
}
