import DCCBOR
import Testing

/// RFC 8949 Appendix F (well-formedness errors), §5.2–§5.6 and §10 (limits on untrusted input).
struct MalformedInputTests {
  func decodeError(_ hex: String, limits: CBORDecoder.Limits = .default) -> CBORError? {
    do {
      _ = try CBORDecoder(limits: limits).decode([UInt8](hex: hex))
      return nil
    } catch {
      return error
    }
  }

  func decodeError(_ bytes: [UInt8]) -> CBORError? {
    decodeError(bytes.hex)
  }

  @Test(arguments: [
    "a26161016162820203", "1bffffffffffffffff", "fb3ff199999999999a",
    "9f018202039f0405ffff", "bf6346756ef563416d7421ff", "5f42010243030405ff",
    "c074323031332d30332d32315432303a30343a30305a", "64f0908591",
  ])
  func everyPrefixIsTruncated(_ hex: String) {
    let bytes = [UInt8](hex: hex)
    for length in 0..<bytes.count {
      let error = decodeError(Array(bytes[..<length]))
      #expect(error?.code == .truncated, "\(hex) cut at \(length): \(String(describing: error))")
    }
  }

  @Test func lyingLengthPrefixesFailBeforeAllocating() {
    #expect(decodeError("5bffffffffffffffff")?.code == .lengthTooLarge)
    #expect(decodeError("9b00000000ffffffff")?.code == .lengthTooLarge)
    #expect(decodeError("bb00000000ffffffff")?.code == .lengthTooLarge)
    #expect(decodeError("7b7fffffffffffffff")?.code == .lengthTooLarge)
    // Within the limit but longer than the input.
    #expect(decodeError("5a00100000010203")?.code == .truncated)
    #expect(decodeError("9a00100000010203")?.code == .truncated)
    #expect(decodeError("b90100" + String(repeating: "00", count: 300))?.code == .truncated)
    let generous = CBORDecoder.Limits(maxItemLength: .max)
    #expect(decodeError("5b7fffffffffffffff", limits: generous)?.code == .truncated)
    #expect(decodeError("9b7fffffffffffffff00", limits: generous)?.code == .truncated)
    let tight = CBORDecoder.Limits(maxItemLength: 3)
    #expect(decodeError("4401020304", limits: tight)?.code == .lengthTooLarge)
    #expect(decodeError("5f4201024201 02ff", limits: tight)?.code == .lengthTooLarge)
    #expect(decodeError("9f01020304ff", limits: tight)?.code == .lengthTooLarge)
  }

  @Test func deepNestingIsBounded() {
    let deep = [UInt8](repeating: 0x81, count: 10_000) + [0x00]
    #expect(decodeError(deep)?.code == .nestingTooDeep)
    let deepIndefinite = [UInt8](repeating: 0x9f, count: 10_000)
    #expect(decodeError(deepIndefinite)?.code == .nestingTooDeep)
    let deepTags = [UInt8](repeating: 0xc6, count: 10_000)
    #expect(decodeError(deepTags + [0x00])?.code == .nestingTooDeep)
    // Exactly at the limit is fine.
    let atLimit = [UInt8](repeating: 0x81, count: 64) + [0x00]
    #expect(decodeError(atLimit) == nil)
    #expect(decodeError([UInt8](repeating: 0x81, count: 65) + [0x00])?.code == .nestingTooDeep)
    let nestingTooDeepError = #expect(throws: CBORError.self) {
      try CBORDecoder().diagnosticNotation(of: deep)
    }
    #expect(nestingTooDeepError?.code == .nestingTooDeep)
  }

  @Test func totalItemsAreBounded() {
    let limits = CBORDecoder.Limits(maxTotalItems: 3)
    #expect(decodeError("83010203", limits: limits)?.code == .tooManyItems)
    #expect(decodeError("820102", limits: limits) == nil)
  }

  @Test func trailingBytesAreRejected() {
    let error = decodeError("0102")
    #expect(error?.code == .trailingBytes)
    #expect(error?.offset == 1)
    #expect(decodeError("8001")?.offset == 1)
  }

  @Test func duplicateKeysAreRejected() {
    let error = decodeError("a201020103")
    #expect(error?.code == .duplicateMapKey)
    #expect(error?.offset == 3)
    #expect(decodeError("a2616101616102")?.code == .duplicateMapKey)
    // The same value in a different encoding is the same key (RFC 8949 §5.6).
    #expect(decodeError("a2010218010a")?.code == .duplicateMapKey)
    #expect(decodeError("a2f93c0001fa3f80000002")?.code == .duplicateMapKey)
    #expect(decodeError("bf01020103ff")?.code == .duplicateMapKey)
    // 1 and 1.0 are different keys.
    #expect(decodeError("a20102f93c0003") == nil)
  }

  @Test(arguments: ["62c328", "61ff", "63eda080", "7f61c3ff", "62c0af"])
  func invalidUTF8IsRejected(_ hex: String) {
    let error = decodeError(hex)
    #expect(error?.code == .invalidUTF8, "\(hex)")
  }

  @Test func reservedAdditionalInformationIsRejected() {
    for info: UInt8 in 28...30 {
      for major: UInt8 in 0...7 {
        let error = decodeError([major << 5 | info])
        #expect(error?.code == .reservedAdditionalInfo, "major \(major) info \(info)")
        #expect(error?.offset == 0)
      }
    }
    let nested = decodeError("83011c02")
    #expect(nested?.code == .reservedAdditionalInfo)
    #expect(nested?.offset == 2)
  }

  @Test func strayBreakIsRejected() {
    #expect(decodeError("ff")?.code == .unexpectedBreak)
    let error = decodeError("8201ff")
    #expect(error?.code == .unexpectedBreak)
    #expect(error?.offset == 2)
    #expect(decodeError("bf01ff")?.code == .unexpectedBreak)  // break where a value belongs
  }

  @Test func malformedIndefiniteLengthIsRejected() {
    #expect(decodeError("7f4161ff")?.code == .malformedIndefiniteLength)  // byte chunk in text
    #expect(decodeError("5f6161ff")?.code == .malformedIndefiniteLength)  // text chunk in bytes
    #expect(decodeError("5f5fffff")?.code == .malformedIndefiniteLength)  // nested indefinite
    #expect(decodeError("5f01ff")?.code == .malformedIndefiniteLength)
    #expect(decodeError("1f")?.code == .malformedIndefiniteLength)
    #expect(decodeError("3f")?.code == .malformedIndefiniteLength)
    #expect(decodeError("df00")?.code == .malformedIndefiniteLength)
    #expect(decodeError("5f41")?.code == .truncated)
  }

  @Test func twoByteSimpleValuesBelow32AreRejected() {
    for value: UInt8 in 0..<32 {
      #expect(decodeError([0xf8, value])?.code == .invalidSimpleValue)
    }
    #expect(decodeError("f820") == nil)
  }

  @Test func typedTagContentIsChecked() {
    #expect(decodeError("c001")?.code == .invalidTagContent)
    #expect(decodeError("c16161")?.code == .invalidTagContent)
    #expect(decodeError("d81801")?.code == .invalidTagContent)
    #expect(decodeError("d903ec01")?.code == .invalidTagContent)
    #expect(decodeError("c26161")?.code == .invalidTagContent)
    let error = decodeError("8201c001")
    #expect(error?.offset == 3)
    // Unknown tags carry anything.
    #expect(decodeError("d9d9f701") == nil)
  }

  @Test func errorsDescribeThemselves() {
    let error = CBORError(.truncated, offset: 4, reason: "input ends")
    #expect(error.description == "CBORError.truncated at offset 4: input ends")
    #expect(CBORErrorCode.duplicateMapKey.description == "duplicateMapKey")
  }
}
