import DCJSON
import DCRegistration
import Testing

/// The creation-options data for Credential Manager's OpenID4VCI issuance matcher.
@Suite("Android issuance registry data")
struct IssuanceRegistryTests {
  @Test("offset, icon, then JSON whose preferred_protocols name openid4vci-v1 first")
  func layout() throws {
    let icon: [UInt8] = [0x89, 0x50, 0x4E, 0x47]
    let data = try AndroidRegistry.issuanceData(
      entryID: "dcwallet", name: "Wallet", subtitle: "Save to Wallet",
      explainer: "The credential is kept on this device.", icon: icon)
    let offset = Int(data[0]) | Int(data[1]) << 8 | Int(data[2]) << 16 | Int(data[3]) << 24
    #expect(offset == 4 + icon.count)
    #expect(Array(data[4..<offset]) == icon)
    let json = try JSONValue(parsing: Array(data[offset...]))
    #expect(json["entry_id"]?.string == "dcwallet")
    let protocols = json["preferred_protocols"]?.array?.compactMap(\.string) ?? []
    #expect(protocols.first == "openid4vci-v1")
    #expect(Set(protocols).isSuperset(of: ["openid4vci1.0", "openid4vci-1.0", "openid4vci"]))
    #expect(!protocols.contains { $0.hasPrefix("openid4vp") || $0 == "org-iso-mdoc" })
    #expect(json["filter"]?["Pass"] != nil)
    #expect(json["entries"]?.array?.first?["subtitle"]?.string == "Save to Wallet")
    #expect(
      json["entries"]?.array?.first?["explainer"]?["default"]?.string
        == "The credential is kept on this device.")
    #expect(json["package_info"]?["name"]?.string == "Wallet")
    #expect(json["package_info"]?["icon"]?.array?.compactMap(\.int) == [4, 8])
  }

  @Test("an entry without an id or a name is refused")
  func refusals() {
    #expect(throws: RegistrationError.self) {
      try AndroidRegistry.issuanceData(entryID: "", name: "Wallet", subtitle: "", explainer: "")
    }
    #expect(throws: RegistrationError.self) {
      try AndroidRegistry.issuanceData(entryID: "id", name: "", subtitle: "", explainer: "")
    }
  }
}
