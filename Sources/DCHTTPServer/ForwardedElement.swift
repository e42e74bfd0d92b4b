/// What one proxy says about a request it passed on: one element of RFC 7239's `Forwarded`
/// (or the last values of X-Forwarded-For, -Host and -Proto). Read from a trusted proxy only.
struct ForwardedElement: Equatable {
  /// The client the proxy served (`for=`); nil when it is `unknown`, obfuscated, or not said.
  var client: IPAddress?
  /// The `Host` the client sent the proxy (`host=`).
  var host: String?
  /// The scheme the client used (`proto=`).
  var proto: String?

  init(client: IPAddress? = nil, host: String? = nil, proto: String? = nil) {
    self.client = client
    self.host = host
    self.proto = proto
  }

  /// The last element of a `Forwarded` field value (repeated lines joined with commas): the one
  /// the nearest proxy appended. Nil when any element does not parse (RFC 7239 §4) or repeats a
  /// parameter, when the last one's `for=` is not a node (§6) or its `proto=` not a scheme, or
  /// when there is no element at all.
  init?(lastOf value: String) {
    guard let elements = Self.elements(Array(value.utf8)),
      let last = elements.last(where: { !$0.isEmpty })
    else { return nil }
    var element = ForwardedElement()
    for (name, text) in last {
      switch name {
      case "for":
        guard let node = Self.node(text) else { return nil }
        element.client = node
      case "host": element.host = text
      case "proto":
        guard Self.isScheme(text) else { return nil }
        element.proto = text
      default: continue  // by= and extensions (§5.5) say nothing the gate uses.
      }
    }
    self = element
  }

  /// RFC 7239 §4: `1#forwarded-element`, `forwarded-element = [ forwarded-pair ] *( ";" [
  /// forwarded-pair ] )`, `forwarded-pair = token "=" value`, `value = token / quoted-string`
  /// (RFC 9110 §5.6.2, §5.6.4); OWS around the list's commas (RFC 9110 §5.6.1) and, leniently,
  /// the semicolons. Parameter names are case-insensitive and appear once per element.
  static func elements(_ bytes: [UInt8]) -> [[(String, String)]]? {
    var elements: [[(String, String)]] = [[]]
    var index = 0
    func skipSpaces() {
      while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
    }
    skipSpaces()
    while index < bytes.count {
      if bytes[index] == UInt8(ascii: ",") || bytes[index] == UInt8(ascii: ";") {
        if bytes[index] == UInt8(ascii: ",") { elements.append([]) }
        index += 1
        skipSpaces()
        continue
      }
      let nameStart = index
      while index < bytes.count, isTokenByte(bytes[index]) { index += 1 }
      guard index > nameStart, index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
        return nil
      }
      let name = String(decoding: bytes[nameStart..<index], as: UTF8.self).lowercased()
      index += 1
      guard let value = Self.value(bytes, &index) else { return nil }
      guard !elements[elements.count - 1].contains(where: { $0.0 == name }) else { return nil }
      elements[elements.count - 1].append((name, value))
      skipSpaces()
      guard
        index == bytes.count || bytes[index] == UInt8(ascii: ",")
          || bytes[index] == UInt8(ascii: ";")
      else { return nil }
    }
    return elements
  }

  /// A token or a quoted-string (its quoted-pairs undone) starting at `index`.
  private static func value(_ bytes: [UInt8], _ index: inout Int) -> String? {
    guard index < bytes.count else { return nil }
    if bytes[index] != UInt8(ascii: "\"") {
      let start = index
      while index < bytes.count, isTokenByte(bytes[index]) { index += 1 }
      return index > start ? String(decoding: bytes[start..<index], as: UTF8.self) : nil
    }
    index += 1
    var text: [UInt8] = []
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      switch byte {
      case UInt8(ascii: "\""): return String(decoding: text, as: UTF8.self)
      case UInt8(ascii: "\\"):
        guard index < bytes.count, bytes[index] == 0x09 || bytes[index] >= 0x20,
          bytes[index] != 0x7F
        else { return nil }
        text.append(bytes[index])
        index += 1
      case 0x09, 0x20...0x7E, 0x80...0xFF: text.append(byte)
      default: return nil
      }
    }
    return nil  // no closing quote
  }

  /// RFC 9110 §5.6.2 tchar.
  private static func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      return true
    default: return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
    }
  }

  /// RFC 3986 §3.1: `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`.
  private static func isScheme(_ text: String) -> Bool {
    guard let first = text.utf8.first, isLetter(first) else { return false }
    return text.utf8.allSatisfy {
      isLetter($0) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
        || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
    }
  }

  private static func isLetter(_ byte: UInt8) -> Bool {
    (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
  }

  /// RFC 7239 §6: `node = nodename [ ":" node-port ]`, a nodename an IPv4 address, a bracketed
  /// IPv6 address, `unknown` or an obfuscated `_`-name; the port digits or obfuscated. The
  /// address, or `.some(nil)` for a node that names none; nil when it is not a node.
  private static func node(_ text: String) -> IPAddress?? {
    var name = Substring(text)
    var port: Substring? = nil
    if name.hasPrefix("[") {
      guard let close = name.firstIndex(of: "]") else { return nil }
      let rest = name[name.index(after: close)...]
      if !rest.isEmpty {
        guard rest.hasPrefix(":") else { return nil }
        port = rest.dropFirst()
      }
      name = name[name.index(after: name.startIndex)..<close]
      guard name.contains(":"), let address = IPAddress(numeric: String(name)) else { return nil }
      return isPort(port) ? .some(address) : nil
    }
    if let colon = name.lastIndex(of: ":") {
      port = name[name.index(after: colon)...]
      name = name[..<colon]
    }
    guard isPort(port) else { return nil }
    if name == "unknown" || isObfuscated(name) { return .some(nil) }
    guard !name.contains(":"), let address = IPAddress(numeric: String(name)) else { return nil }
    return .some(address)
  }

  /// `node-port = port / obfport`: 1 to 5 digits, or an obfuscated `_`-name; nil is no port.
  private static func isPort(_ port: Substring?) -> Bool {
    guard let port else { return true }
    if isObfuscated(port) { return true }
    return (1...5).contains(port.count) && port.allSatisfy { $0.isASCII && $0.isNumber }
  }

  /// `"_" 1*( ALPHA / DIGIT / "." / "_" / "-" )`.
  private static func isObfuscated(_ text: Substring) -> Bool {
    text.count > 1 && text.hasPrefix("_")
      && text.utf8.dropFirst().allSatisfy {
        isLetter($0) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
          || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-")
      }
  }
}
