public import DCJSON
import DCQL

/// Where a claim is in a credential, for any protocol and format: an mdoc data element by
/// namespace and identifier (ISO 18013-5 §8.3.2.1.2.1), or a concrete JSON claims path into an
/// SD-JWT VC's processed payload (OpenID4VP 1.0 §7).
///
/// A consent names claims with these values; the wallet never parses claim names from text.
public enum ClaimReference: Sendable, Hashable {
  /// An mdoc data element.
  case mdoc(nameSpace: String, element: String)
  /// A claim of a JSON credential.
  case json(ClaimPath)

  /// The reference for a concrete DCQL claims path of a credential format: a two-key path of an
  /// `mso_mdoc` credential is a namespace and an element (OpenID4VP 1.0 §7.2); anything else is
  /// a JSON path.
  public init(path: ClaimPath, format: String) {
    if format == DCQLFormat.msoMdoc, path.components.count == 2,
      case .key(let nameSpace) = path.components[0], case .key(let element) = path.components[1]
    {
      self = .mdoc(nameSpace: nameSpace, element: element)
    } else {
      self = .json(path)
    }
  }

  /// The reference as a DCQL claims path (an mdoc element is `[namespace, element]`).
  public var path: ClaimPath {
    switch self {
    case .mdoc(let nameSpace, let element):
      ClaimPath([.key(nameSpace), .key(element)])
    case .json(let path): path
    }
  }

  /// The stable text of the reference in the activity log: `NAMESPACE/ELEMENT` for an mdoc
  /// element, the path's components joined by dots for a JSON claim.
  var logName: String {
    switch self {
    case .mdoc(let nameSpace, let element): "\(nameSpace)/\(element)"
    case .json(let path):
      path.components.map { component -> String in
        switch component {
        case .key(let key): key
        case .index(let index): String(index)
        }
      }.joined(separator: ".")
    }
  }
}

/// The holder's selection for any protocol, as values: the credentials to use and the claims to
/// disclose. What is not chosen takes the minimum the request allows.
///
/// Naming credentials picks, for each doc request or Credential Query, the named candidates (one
/// unless the query allows several) and answers an optional credential set (an optional Annex C
/// use case) only when the named credentials satisfy one of its options. A claim limit keeps,
/// in every presented credential, only the requested claims it names.
public struct ConsentSelection: Sendable, Hashable {
  /// The credentials to use, by wallet id; empty: the minimum the request allows.
  package var credentialIDs: [String]
  /// The claims to disclose among those requested; nil: everything requested that the chosen
  /// credentials hold.
  public var claims: Set<ClaimReference>?

  /// A selection; the default is the minimum the request allows with every requested claim.
  public init(credentialIDs: [String] = [], claims: Set<ClaimReference>? = nil) {
    self.credentialIDs = credentialIDs
    self.claims = claims
  }
}
