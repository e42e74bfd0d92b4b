import DCJSON
import DCQL
import Testing

@Suite("Claims path pointer: the DCQL pattern over the JSON claim path")
struct ClaimsPathPointerTests {
  @Test("Each claim a pattern selects is located by a JSON claim path that selects the same value")
  func selectedPathsAreConcrete() throws {
    let credential = try JSONValue(
      parsing: #"{"degrees":[{"type":"BSc"},{"type":"MSc"}],"name":"Ada"}"#)
    let pattern = try ClaimsPathPointer([.key("degrees"), .allElements, .key("type")])
    let selected = pattern.select(in: ClaimValue(credential))
    #expect(
      selected.map(\.path) == [
        ClaimPath([.key("degrees"), .index(0), .key("type")]),
        ClaimPath([.key("degrees"), .index(1), .key("type")]),
      ])
    for claim in selected {
      #expect(claim.path.value(in: credential).map(ClaimValue.init) == claim.value)
    }
    let name = try ClaimsPathPointer([.key("name")]).select(in: ClaimValue(credential))
    #expect(name.map(\.path) == [["name"]])
  }
}
