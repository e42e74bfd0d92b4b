import DCAPI
import DCJOSE
import DCJSON
import DCRegistration
import DCWallet
import Foundation

/// `dcwallet registry android|ios`: what the stored credentials register with the OS.
enum RegistryCommand {
  static let androidSpec = CommandSpec(
    path: "dcwallet registry android",
    summary: "Write Android Credential Manager registry data for the stored credentials.",
    options: [
      .value("matcher", "NAME", "multipaz (default), cmwallet or ubique"),
      .value(
        "protocol", "P", repeating: true,
        "a protocol to register (default: every protocol the matcher answers)"),
      .value(
        "reader-gate", "BASE64", repeating: true,
        "an authority key identifier of a reader root to gate on (multipaz)"),
      .value("out", "FILE", "where to write the bytes (default: standard output)"),
    ])
  static let iosSpec = CommandSpec(
    path: "dcwallet registry ios",
    summary: "Print the iOS registration plan for the stored credentials.",
    options: [
      .value("mdoc-types", "T", repeating: true, "an mdoc docType the app is entitled to"),
      .value(
        "vc-types", "T", repeating: true, "an SD-JWT VC type the app is entitled to (iOS 27.3)"),
      .value("os-version", "V", "26.0, 27.0 or 27.3 (default 26.0)"),
      .value(
        "registered", "ID", repeating: true, "a document identifier iOS already holds (to prune)"),
      .value(
        "reader-gate", "BASE64", repeating: true,
        "an authority key identifier of a reader root to gate on"),
      .flag("json", "print JSON"),
    ])

  static func run(_ arguments: [String], _ context: CommandContext) async throws {
    guard let sub = arguments.first else {
      throw UsageError("registry needs a subcommand: android or ios", command: "dcwallet registry")
    }
    let rest = Array(arguments.dropFirst())
    switch sub {
    case "android": try await android(try context.parse(androidSpec, rest), context)
    case "ios": try await ios(try context.parse(iosSpec, rest), context)
    case "--help", "-h": throw HelpShown(text: androidSpec.help + "\n\n" + iosSpec.help)
    default: throw UsageError("unknown registry subcommand '\(sub)'", command: "dcwallet registry")
    }
  }

  static func readerGate(_ args: ParsedArguments) throws -> [KeyIdentifier] {
    do {
      return try args.all("reader-gate").map { (text) throws(RegistrationError) in
        try KeyIdentifier(base64: text)
      }
    } catch {
      throw CommandFailure("--reader-gate: \(error.reason)")
    }
  }

  static func android(_ args: ParsedArguments, _ context: CommandContext) async throws {
    guard let matcher = AndroidMatcher(rawValue: args.value("matcher") ?? "multipaz") else {
      throw UsageError("--matcher must be multipaz, cmwallet or ubique", command: androidSpec.path)
    }
    var protocols: [DigitalCredentialProtocol]?
    if !args.all("protocol").isEmpty {
      protocols = try args.all("protocol").map { text in
        guard let value = DigitalCredentialProtocol(rawValue: text) else {
          throw UsageError("unknown protocol \(text)", command: androidSpec.path)
        }
        return value
      }
    }
    let descriptions = try await context.wallet().registrationDescriptions(
      readerGate: try readerGate(args))
    let bytes: [UInt8]
    do {
      bytes = try AndroidRegistry.data(for: descriptions, matcher: matcher, protocols: protocols)
    } catch {
      throw CommandFailure(error.reason)
    }
    if let out = args.value("out") {
      try Files.write(bytes, to: out)
      context.console.out(
        "wrote \(bytes.count) bytes of \(matcher.rawValue) registry data for \(descriptions.count) credential(s) to \(out)"
      )
    } else {
      context.console.outBytes(bytes)
    }
  }

  static func ios(_ args: ParsedArguments, _ context: CommandContext) async throws {
    let platform: IOSPlatformCapabilities
    do {
      platform = try IOSPlatformCapabilities(version: args.value("os-version") ?? "26.0")
    } catch {
      throw UsageError("--os-version: \(error.reason)", command: iosSpec.path)
    }
    let descriptions = try await context.wallet().registrationDescriptions(
      readerGate: try readerGate(args))
    let plan: IOSRegistrationPlan
    do {
      plan = try IOSRegistrationPlan.make(
        descriptions: descriptions, currentlyRegistered: Set(args.all("registered")),
        entitlements: IOSEntitlements(
          mobileDocumentTypes: Set(args.all("mdoc-types")),
          verifiableCredentialTypes: Set(args.all("vc-types"))),
        platform: platform, now: Date())
    } catch {
      throw CommandFailure(error.reason)
    }
    if args.flag("json") {
      context.console.out(plan.json.serialized())
      return
    }
    for addition in plan.additions { context.console.out("add     \(addition.documentIdentifier)") }
    for removal in plan.removals { context.console.out("remove  \(removal)") }
    for skipped in plan.skipped { context.console.out("skip    \(skipped.id): \(skipped.reason)") }
    for warning in plan.warnings { context.console.out("warning \(warning.id): \(warning.kind)") }
    if plan.additions.isEmpty && plan.removals.isEmpty && plan.skipped.isEmpty {
      context.console.out("nothing to register")
    }
  }
}
