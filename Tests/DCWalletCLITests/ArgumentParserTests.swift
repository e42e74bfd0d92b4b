import DCWalletCLI
import Testing

@Suite("Argument parser")
struct ArgumentParserTests {
  static let spec = CommandSpec(
    path: "dcwallet test", summary: "A test command.",
    options: [
      .value("origin", "ORIGIN", required: true, "the origin"),
      .value("disclose", "CLAIM", repeating: true, "claims"),
      .flag("json", "print JSON"),
    ], positionals: ["ID"], requiredPositionals: 0)

  @Test("Values, repeated values, =-form, flags, positionals and --")
  func parses() throws {
    let parsed = try Self.spec.parse([
      "--origin", "https://a.example", "--disclose=x/y", "--disclose", "x/z", "--json", "--",
      "--id",
    ])
    #expect(parsed.value("origin") == "https://a.example")
    #expect(parsed.all("disclose") == ["x/y", "x/z"])
    #expect(parsed.flag("json"))
    #expect(parsed.positionals == ["--id"])
  }

  @Test(
    "Usage errors name the problem",
    arguments: [
      (["--origin", "o", "--bogus"], "unknown option '--bogus'"),
      (["--origin"], "--origin needs a value"),
      ([] as [String], "--origin is required"),
      (["--origin", "a", "--origin", "b"], "may be given only once"),
      (["--origin", "a", "--json=yes"], "takes no value"),
      (["--origin", "a", "one", "two"], "unexpected argument 'two'"),
      (["--origin", "a", "-x"], "unknown option '-x'"),
    ])
  func usageErrors(arguments: [String], message: String) {
    #expect {
      try Self.spec.parse(arguments)
    } throws: { error in
      guard let usage = error as? UsageError else { return false }
      return usage.message.contains(message) && usage.description.contains("dcwallet test --help")
    }
  }

  @Test("--help skips required checks and the help lists every option")
  func help() throws {
    #expect(try Self.spec.parse(["--help"]).wantsHelp)
    let help = Self.spec.help
    for option in ["--origin ORIGIN", "--disclose CLAIM", "--json", "-h, --help"] {
      #expect(help.contains(option))
    }
    #expect(help.contains("(repeatable)"))
  }
}
