import DCZK
import Testing

@Suite struct ZKErrorTests {
  @Test func errorNamesItsModule() {
    let error = ZKError(.proofTruncated, "ends early")
    #expect(error.description == "ZKError.proofTruncated: ends early")
  }
}
