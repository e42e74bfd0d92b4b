import DCHTTP
import DCTrust
import DCX509
import Foundation

/// `--crl FILE|URL`, `--crl-fetch` and `--crl-fail-closed` on the commands that check
/// certificate chains (issue 29): every chain the command's role validates (IACA to document
/// signer, reader and verifier certificates, SD-JWT VC issuers, status-list signers) is checked
/// against the CRLs given and, with `--crl-fetch`, the CRLs the presented certificates name
/// (RFC 5280 §6.3, §4.2.1.13). The dispatcher reads them into the command's context; each
/// command hands the setting to its role (the wallet's policy, the verifier's configuration,
/// the reader's request).
enum RevocationOptions {
  /// The options, appended to each chain-checking command's spec.
  static let options: [CommandSpec.Option] = [
    .value(
      "crl", "FILE|URL", repeating: true,
      "a CRL (RFC 5280, DER or PEM) to check every certificate chain against; a URL is fetched "
        + "(https, or http on loopback)"),
    .flag(
      "crl-fetch",
      "fetch the CRL each presented certificate names in its distribution points (https, or "
        + "http on loopback; the issuer's signature checked; cached until its nextUpdate)"),
    .flag(
      "crl-fail-closed",
      "refuse a chain whose certificate names a CRL distribution point no CRL covers (not "
        + "given, unreachable or not signed by its issuer; default: accept it and report the "
        + "status unknown)"),
  ]

  /// The most bytes read from a CRL file or URL (`CertificateRevocationList.maximumLength`).
  static let limit = InputLimit(bytes: 4 * 1024 * 1024, kind: "a CRL")

  /// The setting `arguments` ask for (their `--crl`, `--crl-fetch` and `--crl-fail-closed`),
  /// or nil without `--crl` or `--crl-fetch`. Options after `--` are not read.
  static func settings(_ arguments: [String]) async throws -> RevocationSettings? {
    var sources: [String] = []
    var failClosed = false
    var fetch = false
    var index = 0
    while index < arguments.count, arguments[index] != "--" {
      let argument = arguments[index]
      if argument == "--crl", index + 1 < arguments.count {
        sources.append(arguments[index + 1])
        index += 1
      } else if argument.hasPrefix("--crl=") {
        sources.append(String(argument.dropFirst("--crl=".count)))
      } else if argument == "--crl-fail-closed" {
        failClosed = true
      } else if argument == "--crl-fetch" {
        fetch = true
      }
      index += 1
    }
    guard !sources.isEmpty || fetch else { return nil }
    var crls: [CertificateRevocationList] = []
    for source in sources { crls.append(try await crl(source)) }
    return RevocationSettings(
      crls: crls, policy: failClosed ? .failClosed : .failOpen,
      fetcher: fetch ? fetcher() : nil)
  }

  /// The fetcher of `--crl-fetch` and `--crl URL`: https, or plain http to a loopback host
  /// (the development URL policy the CLI's status-list fetching uses).
  static func fetcher() -> CRLFetcher {
    CRLFetcher(
      httpClient: URLSessionHTTPClient(
        configuration: .init(policy: .development, maxResponseBytes: limit.bytes)),
      urlPolicy: .development)
  }

  /// One CRL from a file, or fetched from an https URL (or http on loopback).
  static func crl(_ source: String) async throws -> CertificateRevocationList {
    let lowered = source.lowercased()
    if lowered.hasPrefix("https://") || lowered.hasPrefix("http://") {
      let fetcher = fetcher()
      guard let crl = await fetcher.fetched(source) else {
        throw CommandFailure(
          "--crl \(source): \(await fetcher.failures[source] ?? "could not be fetched")")
      }
      return crl
    }
    do {
      return try CertificateRevocationList(derOrPEM: try Files.read(source, limit: limit))
    } catch let error as CertificateError {
      throw CommandFailure("\(source) is not a CRL: \(error.reason)")
    }
  }
}
