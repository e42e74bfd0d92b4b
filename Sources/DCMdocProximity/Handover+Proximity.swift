public import DCCBOR
public import DCMdoc

extension Handover {
  /// The Handover of a QR engagement: null (ISO 18013-5 §9.1.5.1).
  public static var qr: CBOR { .null }

  /// The Handover of an NFC engagement, `NFCHandover = [HandoverSelect, HandoverRequest / null]`
  /// (ISO 18013-5 §9.1.5.1): the bytes of the whole Handover Select NDEF message, and of the
  /// Handover Request message for negotiated handover or null for static handover.
  public static func nfc(handoverSelect: [UInt8], handoverRequest: [UInt8]?) -> CBOR {
    [.byteString(handoverSelect), handoverRequest.map { .byteString($0) } ?? .null]
  }
}
