import DCCOSE
package import DCX509

/// The document signer chain of the last mdoc read, kept for the next one whose x5chain holds
/// the same certificates (RFC 9360 §2: DER, leaf first), as the mdocs of an issued batch do:
/// each certificate is parsed once per batch rather than once per mdoc. Every mdoc is still
/// verified whole (its own signature, the chain, digests, validity).
package struct DocumentSignerChainMemo: Sendable {
  private var last: (ders: [[UInt8]], chain: [Certificate])?

  /// An empty memo.
  package init() {}

  /// The chain of `issuerSigned`'s x5chain: the kept one when its DER is the same, otherwise
  /// parsed by ``IssuerSigned/documentSignerChain()`` (with its errors) and kept.
  package mutating func chain(of issuerSigned: IssuerSigned) throws(MdocError) -> [Certificate] {
    let ders = try? issuerSigned.issuerAuth.headers.x5chain
    if let ders, let last, last.ders == ders { return last.chain }
    let chain = try issuerSigned.documentSignerChain()
    if let ders { last = (ders, chain) }
    return chain
  }
}
