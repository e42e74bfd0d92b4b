import DCErrors

/// Content type checks for the tags this module gives meaning to.
///
/// RFC 8949 §3.4 (tags 0, 1, 2, 3), §3.4.5.1 (tag 24) and RFC 8943 (tags 100, 1004). Only
/// the major type is checked while decoding; the text syntax is checked when read as a date.
enum TypedTag {
  static func checkContent(tag: UInt64, content: CBOR, offset: Int) throws(CBORError) {
    let fits: Bool
    let expected: String
    switch tag {
    case 0, 1004:
      fits = content.text != nil
      expected = "a text string"
    case 1:
      switch content {
      case .unsigned, .negative, .half, .float, .double: fits = true
      default: fits = false
      }
      expected = "an integer or float"
    case 2, 3, 24:
      fits = content.bytes != nil
      expected = "a byte string"
    case 100:
      fits = content.int != nil
      expected = "an integer"
    default:
      return
    }
    if !fits {
      throw CBORError(
        .invalidTagContent, offset: offset,
        reason: "tag \(tag) content must be \(expected)")
    }
  }
}
