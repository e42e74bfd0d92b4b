package import DCCBOR

/// `ZkSystemSpec` (ISO 18013-5 second edition §10.2.7, not public; the CDDL as published by
/// Google's longfellow-zk documentation, `docs/content/en/docs/zk-system-spec.md`, and as read and
/// written by multipaz `ZkRequest.kt` and EUDI's `ZkSystemSpec.swift`):
/// `{"zkSystemId": tstr, "system": tstr, "params": {* tstr => any}, * tstr => RFU}`.
///
/// A verifier names the zero-knowledge systems (for Longfellow: the circuits) it can verify; the
/// wallet answers with a proof under one of them, naming it by `zkSystemId`.
public struct ZkSystemSpec: Sendable, Hashable {

  /// The CBOR map keys of this structure, named once.
  enum Keys {
    static let zkSystemId = "zkSystemId"
    static let system = "system"
    static let params = "params"
    static let all = [zkSystemId, system, params]
    static let clause = "ISO 18013-5 2nd edition §10.2.7 (ZkSystemSpec)"
  }

  /// The parameter names Longfellow defines (longfellow-zk `docs/.../zk-system-spec.md`: all
  /// five must be present).
  package enum LongfellowParameter {
    static let circuitHash = "circuit_hash"
    static let numAttributes = "num_attributes"
    static let version = "version"
    static let blockEncHash = "block_enc_hash"
    static let blockEncSig = "block_enc_sig"
  }

  /// One parameter value (`ZkParams = {* tstr => Ext}`): the primitive types the three
  /// implementations read (multipaz `ZkSystemParamValue`: text, integer, float, boolean).
  public enum Parameter: Sendable, Hashable {
    /// A text string.
    case text(String)
    /// An integer.
    case integer(Int64)
    /// A boolean.
    case boolean(Bool)
    /// A floating-point number.
    case double(Double)
  }

  /// The system name of Google's Longfellow ZK (draft-google-cfrg-libzk).
  public static let longfellowV1 = "longfellow-libzk-v1"
  /// The most parameters one spec may carry (Longfellow uses five).
  package static let maxParameters = 32
  /// The longest text (id, system, parameter name or text value) accepted, in bytes.
  package static let maxTextLength = 256

  /// `zkSystemId`: the id the response names (Longfellow recommends the circuit hash).
  public let zkSystemId: String
  /// `system`, e.g. ``longfellowV1``.
  public let system: String
  /// `params`, by name.
  public let params: [String: Parameter]

  /// Creates a spec.
  package init(zkSystemId: String, system: String, params: [String: Parameter]) {
    self.zkSystemId = zkSystemId
    self.system = system
    self.params = params
  }

  /// A Longfellow spec with its five parameters; `zkSystemId` is the circuit hash, as the
  /// longfellow-zk documentation recommends.
  public init(
    longfellowCircuitHash circuitHash: String, numAttributes: Int, version: Int,
    blockEncHash: Int, blockEncSig: Int
  ) {
    typealias P = LongfellowParameter
    self.init(
      zkSystemId: circuitHash, system: Self.longfellowV1,
      params: [
        P.circuitHash: .text(circuitHash), P.numAttributes: .integer(Int64(numAttributes)),
        P.version: .integer(Int64(version)), P.blockEncHash: .integer(Int64(blockEncHash)),
        P.blockEncSig: .integer(Int64(blockEncSig)),
      ])
  }

  /// `circuit_hash`: the Longfellow circuit id as 64 lowercase hex digits.
  public var circuitHash: String? {
    if case .text(let value)? = params[LongfellowParameter.circuitHash] { return value }
    return nil
  }

  /// `num_attributes`: how many attributes the circuit discloses (1 to 4 for Longfellow).
  public var numAttributes: Int? { integer(LongfellowParameter.numAttributes) }
  /// `version`: the Longfellow circuit version.
  public var version: Int? { integer(LongfellowParameter.version) }
  /// `block_enc_hash`: the Ligero block size of the hash circuit's proof.
  package var blockEncHash: Int? { integer(LongfellowParameter.blockEncHash) }
  /// `block_enc_sig`: the Ligero block size of the signature circuit's proof.
  package var blockEncSig: Int? { integer(LongfellowParameter.blockEncSig) }

  private func integer(_ name: String) -> Int? {
    if case .integer(let value)? = params[name] { return Int(exactly: value) }
    return nil
  }

  /// Reads a ZkSystemSpec map. `zkSystemId` is required: the response names the spec by it.
  package init(cbor: CBOR) throws(MdocError) {
    let ctx = "ZkSystemSpec"
    let (id, system, params) = try reading(ctx) {
      () throws(CBORError) -> (String, String, CBORMap) in
      let map = try CBORMapReader(cbor, structure: ctx, clause: Keys.clause, knownKeys: Keys.all)
      return (
        try map.required(Keys.zkSystemId, as: String.self),
        try map.required(Keys.system, as: String.self),
        try map.optionalMap(Keys.params)?.map ?? CBORMap()
      )
    }
    guard !id.isEmpty, id.utf8.count <= Self.maxTextLength, !system.isEmpty,
      system.utf8.count <= Self.maxTextLength
    else {
      throw MdocError(
        .malformed, "\(ctx): zkSystemId and system must be 1 to \(Self.maxTextLength) bytes")
    }
    guard params.count <= Self.maxParameters else {
      throw MdocError(
        .malformed, "\(ctx).params has \(params.count) entries, more than \(Self.maxParameters)")
    }
    var values: [String: Parameter] = [:]
    for (key, value) in params {
      guard let name = key.text, name.utf8.count <= Self.maxTextLength else {
        throw MdocError(.malformed, "\(ctx).params keys must be short text strings")
      }
      values[name] = try Self.parameter(value, name: name)
    }
    self.init(zkSystemId: id, system: system, params: values)
  }

  private static func parameter(_ value: CBOR, name: String) throws(MdocError) -> Parameter {
    switch value {
    case .textString(let text) where text.utf8.count <= maxTextLength: return .text(text)
    case .unsigned(let n) where n <= UInt64(Int64.max): return .integer(Int64(n))
    case .negative(let n) where n < UInt64(Int64.max): return .integer(-1 - Int64(n))
    case .boolean(let flag): return .boolean(flag)
    case .double(let number): return .double(number)
    case .float(let number): return .double(Double(number))
    default:
      throw MdocError(
        .malformed,
        "ZkSystemSpec.params[\(name)] must be a short text, an integer, a boolean or a float")
    }
  }

  /// The map: zkSystemId, system, then params sorted by name.
  package var cbor: CBOR {
    var map: CBORMap = [
      .textString(Keys.zkSystemId): .textString(zkSystemId),
      .textString(Keys.system): .textString(system),
    ]
    var inner = CBORMap()
    for (name, value) in params.sorted(by: { $0.key < $1.key }) {
      inner[key: .textString(name)] =
        switch value {
        case .text(let text): .textString(text)
        case .integer(let n): n >= 0 ? .unsigned(UInt64(n)) : .negative(UInt64(-1 - n))
        case .boolean(let flag): .boolean(flag)
        case .double(let number): .double(number)
        }
    }
    map[Keys.params] = .map(inner)
    return .map(map)
  }
}

/// `ZkRequest` in a `DocRequestInfo` (the ItemsRequest's `requestInfo`, ISO 18013-5 second
/// edition §10.2.7; as multipaz `DocRequestInfo.kt` / `ZkRequest.kt` and EUDI's
/// `DocRequestInfo.swift` / `ZkRequest.swift` read it): `"zkRequest": {"systemSpecs":
/// [+ ZkSystemSpec], "zkRequired": bool}`.
package struct ZkRequest: Sendable, Hashable {

  /// The CBOR map keys of this structure, named once.
  enum Keys {
    static let zkRequest = "zkRequest"
    static let systemSpecs = "systemSpecs"
    static let zkRequired = "zkRequired"
    static let all = [systemSpecs, zkRequired]
    static let clause = "ISO 18013-5 2nd edition §10.2.7 (ZkRequest)"
  }

  /// The most system specs one request may list.
  package static let maxSystemSpecs = 64

  /// The systems the verifier can verify, in its order of preference.
  package let systemSpecs: [ZkSystemSpec]
  /// Whether the verifier accepts only a zero-knowledge answer (multipaz writes it always;
  /// EUDI's reader does not read it; absent is read as false).
  package let zkRequired: Bool

  /// Creates a request for a proof under one of `systemSpecs`.
  package init(systemSpecs: [ZkSystemSpec], zkRequired: Bool = true) {
    self.systemSpecs = systemSpecs
    self.zkRequired = zkRequired
  }

  /// Reads a ZkRequest map.
  package init(cbor: CBOR) throws(MdocError) {
    let ctx = "ZkRequest"
    let (items, required) = try reading(ctx) { () throws(CBORError) -> ([CBOR], Bool) in
      let map = try CBORMapReader(cbor, structure: ctx, clause: Keys.clause, knownKeys: Keys.all)
      return (
        try map.required(Keys.systemSpecs, as: [CBOR].self),
        try map.optional(Keys.zkRequired, as: Bool.self) ?? false
      )
    }
    guard !items.isEmpty, items.count <= Self.maxSystemSpecs else {
      throw MdocError(
        .malformed, "\(ctx).systemSpecs must list 1 to \(Self.maxSystemSpecs) specs")
    }
    var specs: [ZkSystemSpec] = []
    for (index, item) in items.enumerated() {
      do {
        specs.append(try ZkSystemSpec(cbor: item))
      } catch {
        throw MdocError(error.code, "systemSpecs[\(index)]: \(error.reason)", underlying: error)
      }
    }
    self.init(systemSpecs: specs, zkRequired: required)
  }

  /// The map.
  package var cbor: CBOR {
    [
      .textString(Keys.systemSpecs): .array(systemSpecs.map(\.cbor)),
      .textString(Keys.zkRequired): .boolean(zkRequired),
    ]
  }
}

extension ItemsRequest {
  /// Builds a request for a zero-knowledge proof of `elements` of `docType`: the elements with
  /// intent to retain false, and `zkRequest` in the request info (ISO 18013-5 2nd edition
  /// §10.2.7).
  package init(
    docType: String, zeroKnowledge zkRequest: ZkRequest,
    nameSpaces: [(nameSpace: String, elements: [String])]
  ) {
    self.init(
      docType: docType,
      nameSpaces: nameSpaces.map {
        ($0.nameSpace, $0.elements.map { Element($0, intentToRetain: false) })
      },
      requestInfo: [.textString(ZkRequest.Keys.zkRequest): zkRequest.cbor])
  }

  /// The request's `zkRequest`, nil when it asks for no zero-knowledge proof.
  ///
  /// - Throws: `malformed` when `requestInfo.zkRequest` is present but not a ZkRequest.
  package var zkRequest: ZkRequest? {
    get throws(MdocError) {
      guard let item = requestInfo?[ZkRequest.Keys.zkRequest] else { return nil }
      do {
        return try ZkRequest(cbor: item)
      } catch {
        throw MdocError(error.code, "requestInfo.\(error.reason)", underlying: error)
      }
    }
  }
}
