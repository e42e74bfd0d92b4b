/// A small command-line parser: options with values (`--name VALUE` or `--name=VALUE`),
/// repeatable options, flags, positionals, `--` to end options, and generated help.
///
/// No argument-parser package can be fetched here; this one is deliberately small and strict:
/// an unknown option is a usage error that names the option and the command.
package struct CommandSpec: Sendable {
  /// One option or flag.
  package struct Option: Sendable {
    /// The long name without dashes, such as `origin`.
    package let name: String
    /// The value's placeholder; nil for a flag.
    package let valueName: String?
    /// Whether it may appear more than once.
    package let repeating: Bool
    /// Whether it must appear.
    package let required: Bool
    /// One line of help.
    package let help: String

    /// An option that takes a value.
    package static func value(
      _ name: String, _ valueName: String, required: Bool = false, repeating: Bool = false,
      _ help: String
    ) -> Option {
      Option(name: name, valueName: valueName, repeating: repeating, required: required, help: help)
    }

    /// A flag without a value.
    package static func flag(_ name: String, _ help: String) -> Option {
      Option(name: name, valueName: nil, repeating: false, required: false, help: help)
    }
  }

  /// The command path, such as `dcwallet trust add`.
  package let path: String
  /// One line of what the command does.
  package let summary: String
  /// Options and flags.
  package let options: [Option]
  /// Names of positional arguments, in order; a trailing `...` marks a repeating one.
  package let positionals: [String]
  /// How many positionals are required.
  package let requiredPositionals: Int
  /// Extra help text (examples).
  package let discussion: String

  /// Creates a command specification.
  package init(
    path: String, summary: String, options: [Option] = [], positionals: [String] = [],
    requiredPositionals: Int? = nil,
    discussion: String = ""
  ) {
    self.path = path
    self.summary = summary
    self.options = options
    self.positionals = positionals
    self.requiredPositionals = requiredPositionals ?? positionals.count
    self.discussion = discussion
  }

  /// The help text: usage line, summary, options.
  package var help: String {
    var usage = "usage: \(path)"
    for option in options {
      let text = "--\(option.name)" + (option.valueName.map { " \($0)" } ?? "")
      usage += option.required ? " \(text)" : " [\(text)]"
      if option.repeating { usage += "..." }
    }
    for (index, positional) in positionals.enumerated() {
      usage += index < requiredPositionals ? " \(positional)" : " [\(positional)]"
    }
    var lines = [usage, "", summary]
    if !options.isEmpty {
      lines.append("")
      lines.append("options:")
      let width =
        options.map { "--\($0.name)".count + ($0.valueName.map { $0.count + 1 } ?? 0) }.max() ?? 0
      for option in options {
        let left = "--\(option.name)" + (option.valueName.map { " \($0)" } ?? "")
        let pad = String(repeating: " ", count: max(1, width - left.count + 2))
        lines.append("  \(left)\(pad)\(option.help)\(option.repeating ? " (repeatable)" : "")")
      }
      lines.append(
        "  -h, --help" + String(repeating: " ", count: max(1, width - 8)) + "show this help")
    }
    if !discussion.isEmpty {
      lines.append("")
      lines.append(discussion)
    }
    return lines.joined(separator: "\n")
  }
}

/// A usage error: exit code 2, with a message that says what was wrong.
package struct UsageError: Error, Sendable, CustomStringConvertible {
  /// What was wrong.
  package let message: String
  /// The command whose usage to show.
  package let command: String

  /// Creates a usage error.
  package init(_ message: String, command: String) {
    self.message = message
    self.command = command
  }

  package var description: String { "\(command): \(message)\nRun '\(command) --help' for usage." }
}

/// What a command line said.
package struct ParsedArguments: Sendable {
  /// Option values by name, in order of appearance.
  package let values: [String: [String]]
  /// Flags that were given.
  package let flags: Set<String>
  /// Positional arguments.
  package let positionals: [String]
  /// Whether `--help` or `-h` was given.
  package let wantsHelp: Bool

  /// The single value of an option, if given.
  package func value(_ name: String) -> String? { values[name]?.last }
  /// Every value of a repeatable option.
  package func all(_ name: String) -> [String] { values[name] ?? [] }
  /// Whether a flag was given.
  package func flag(_ name: String) -> Bool { flags.contains(name) }
}

extension CommandSpec {
  /// Parses arguments (without the command words) against this specification.
  package func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
    var values: [String: [String]] = [:]
    var flags = Set<String>()
    var positionals: [String] = []
    var wantsHelp = false
    var index = 0
    var optionsEnded = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
        positionals.append(argument)
        continue
      }
      if argument == "--" {
        optionsEnded = true
        continue
      }
      if argument == "-h" || argument == "--help" {
        wantsHelp = true
        continue
      }
      guard argument.hasPrefix("--") else {
        throw UsageError("unknown option '\(argument)' (options are written --name)", command: path)
      }
      var name = String(argument.dropFirst(2))
      var inlineValue: String?
      if let equals = name.firstIndex(of: "=") {
        inlineValue = String(name[name.index(after: equals)...])
        name = String(name[..<equals])
      }
      guard let option = options.first(where: { $0.name == name }) else {
        let known = options.map { "--\($0.name)" }.joined(separator: ", ")
        throw UsageError(
          "unknown option '--\(name)'" + (known.isEmpty ? "" : " (known: \(known))"), command: path)
      }
      if option.valueName == nil {
        guard inlineValue == nil else {
          throw UsageError("--\(name) takes no value", command: path)
        }
        flags.insert(name)
        continue
      }
      let value: String
      if let inlineValue {
        value = inlineValue
      } else {
        guard index < arguments.count else {
          throw UsageError(
            "--\(name) needs a value (\(option.valueName ?? "VALUE"))", command: path)
        }
        value = arguments[index]
        index += 1
      }
      if !option.repeating, values[name] != nil {
        throw UsageError("--\(name) may be given only once", command: path)
      }
      values[name, default: []].append(value)
    }
    if !wantsHelp {
      for option in options where option.required && values[option.name] == nil {
        throw UsageError("--\(option.name) is required", command: path)
      }
      if positionals.count < requiredPositionals {
        throw UsageError(
          "missing \(positionals.count < self.positionals.count ? self.positionals[positionals.count] : "argument")",
          command: path)
      }
      let repeating = self.positionals.last?.hasSuffix("...") ?? false
      if !repeating, positionals.count > self.positionals.count {
        throw UsageError(
          "unexpected argument '\(positionals[self.positionals.count])'", command: path)
      }
    }
    return ParsedArguments(
      values: values, flags: flags, positionals: positionals, wantsHelp: wantsHelp)
  }
}
