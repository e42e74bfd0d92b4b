public import DCAPI
import DCJSON

extension AndroidRegistry {
  /// The registry data that marks the wallet as able to receive credentials offered through
  /// `navigator.credentials.create` (`openid4vci-v1`).
  ///
  /// The presentation registries (``data(for:matcher:protocols:)``: the multipaz CBOR database,
  /// the CMWallet and Ubique blobs) have no member for issuance: Credential Manager keeps
  /// issuance in a registry of its own, registered with
  /// `RegistryManager.registerCreationOptions` (`RegisterCreationOptionsRequest`: these bytes,
  /// the issuance matcher's wasm, the type `androidx.credentials.TYPE_DIGITAL_CREDENTIAL`, an
  /// id). This is the data of Google's OpenID4VCI issuance matcher (android/identity-samples,
  /// `IssuanceMatcherData`): a little-endian int32 offset of the JSON (4 + icon bytes), the
  /// icon, then UTF-8 JSON
  ///
  /// ```
  /// { "entry_id", "entries": [{ "subtitle", "explainer": { "per_issuer": {}, "default" } }],
  ///   "filter": { "Pass": {} }, "preferred_protocols": [tstr],
  ///   "package_info": { "name", "icon": [start, end] } }
  /// ```
  ///
  /// `preferred_protocols` is the field that says which issuance protocols the wallet takes:
  /// the registered identifier first, then the historical aliases this SDK reads
  /// (`DigitalCredentialIssuanceProtocol`), so an early page's request matches too. The filter
  /// passes every offer: the wallet decides about the issuer once it has the request.
  ///
  /// - Parameters:
  ///   - entryID: the picker entry's id, handed back with the request.
  ///   - name: the wallet's name in the picker.
  ///   - subtitle: the line under it.
  ///   - explainer: what saving the credential to this wallet means.
  ///   - icon: the wallet's icon (PNG), possibly empty.
  /// - Throws: `registryTooLarge` for an icon the int32 offset cannot span; `invalidDescription`
  ///   for an empty entry id or name.
  public static func issuanceData(
    entryID: String, name: String, subtitle: String, explainer: String, icon: [UInt8] = []
  ) throws(RegistrationError) -> [UInt8] {
    guard !entryID.isEmpty, !name.isEmpty else {
      throw RegistrationError(
        .invalidDescription, "the issuance entry needs an id and the wallet's name")
    }
    guard icon.count <= Int(Int32.max) - 4 else {
      throw RegistrationError(.registryTooLarge, "the icon exceeds the int32 offset")
    }
    let start = Int64(4)
    let json = JSONValue.object([
      ("entry_id", .string(entryID)),
      (
        "entries",
        .array([
          .object([
            ("subtitle", .string(subtitle)),
            (
              "explainer",
              .object([("per_issuer", .object([])), ("default", .string(explainer))])
            ),
          ])
        ])
      ),
      ("filter", .object([("Pass", .object([]))])),
      (
        "preferred_protocols",
        .array(DigitalCredentialIssuanceProtocol.identifiers.map { .string($0.identifier) })
      ),
      (
        "package_info",
        .object([
          ("name", .string(name)),
          ("icon", .array([.integer(start), .integer(start + Int64(icon.count))])),
        ])
      ),
    ])
    let offset = UInt32(4 + icon.count)
    let header: [UInt8] = [
      UInt8(truncatingIfNeeded: offset), UInt8(truncatingIfNeeded: offset >> 8),
      UInt8(truncatingIfNeeded: offset >> 16), UInt8(truncatingIfNeeded: offset >> 24),
    ]
    return header + icon + json.serializedBytes()
  }
}
