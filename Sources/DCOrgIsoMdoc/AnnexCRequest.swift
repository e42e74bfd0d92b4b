package import DCAPI
import DCEncoding
import DCJOSE
public import DCJSON
package import DCMdoc

/// An `org-iso-mdoc` request (ISO/IEC TS 18013-7:2025 Annex C): `data = {"deviceRequest":
/// b64url(DeviceRequest), "encryptionInfo": b64url(EncryptionInfo)}`.
public struct AnnexCRequest: Sendable, Hashable {
  /// The decoded DeviceRequest.
  package let deviceRequest: DeviceRequest
  /// The checked EncryptionInfo, with its text as received.
  package let encryptionInfo: EncryptionInfo
  /// `data.deviceRequest` as received.
  package let deviceRequestBase64URL: String

  /// Reads the request data object.
  package init(data: JSONValue) throws(OrgIsoMdocError) {
    guard let deviceRequestText = data["deviceRequest"]?.string else {
      throw OrgIsoMdocError(
        .invalidRequest, "org-iso-mdoc data needs a string \"deviceRequest\"")
    }
    guard let encryptionInfoText = data["encryptionInfo"]?.string else {
      throw OrgIsoMdocError(
        .invalidRequest, "org-iso-mdoc data needs a string \"encryptionInfo\"")
    }
    let bytes: [UInt8]
    do {
      bytes = try Base64URL.decode(deviceRequestText)
    } catch {
      throw OrgIsoMdocError(
        .invalidRequest, "deviceRequest is not base64url: \(error.reason)", underlying: error)
    }
    do {
      deviceRequest = try DeviceRequest(bytes: bytes)
    } catch {
      throw OrgIsoMdocError(
        .invalidRequest, "deviceRequest: \(error.reason)", underlying: error)
    }
    encryptionInfo = try EncryptionInfo(base64URL: encryptionInfoText)
    deviceRequestBase64URL = deviceRequestText
  }

  /// Builds a request (verifier side).
  package init(deviceRequest: DeviceRequest, encryptionInfo: EncryptionInfo) {
    self.deviceRequest = deviceRequest
    self.encryptionInfo = encryptionInfo
    deviceRequestBase64URL = Base64URL.encode(deviceRequest.bytes)
  }

  /// The request data object.
  public var data: JSONValue {
    .object([
      ("deviceRequest", .string(deviceRequestBase64URL)),
      ("encryptionInfo", .string(encryptionInfo.base64URL)),
    ])
  }

  /// `SessionTranscript = [null, null, ["dcapi", SHA-256(CBOR([encryptionInfoB64, origin]))]]`
  /// (C.3.2.2), for the origin the platform supplied.
  package func sessionTranscript(origin: WebOrigin) -> SessionTranscript {
    SessionTranscript(
      handover: Handover.dcapi(
        encryptionInfoBase64: encryptionInfo.base64URL, origin: origin.serialized))
  }
}
