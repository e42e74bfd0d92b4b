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

  /// The help text: usage line, summary, options, discussion; no line wider than
  /// ``HelpLayout/width`` unless one word is.
  package var help: String {
    var words: [String] = []
    for option in options {
      let text = "--\(option.name)" + (option.valueName.map { " \($0)" } ?? "")
      words.append((option.required ? text : "[\(text)]") + (option.repeating ? "..." : ""))
    }
    for (index, positional) in positionals.enumerated() {
      words.append(index < requiredPositionals ? positional : "[\(positional)]")
    }
    // Continuation lines of the usage start under the first option (or 8 columns in).
    let head = "usage: \(path)"
    let hanging = String(repeating: " ", count: head.count + 1 <= 40 ? head.count + 1 : 8)
    var lines = HelpLayout.wrap(units: [head] + words, rest: hanging)
    lines.append("")
    lines += HelpLayout.wrapParagraph(summary)
    if !options.isEmpty {
      lines.append("")
      lines.append("options:")
      let rows: [(name: String, description: String)] = options.map { option in
        (
          "--\(option.name)" + (option.valueName.map { " \($0)" } ?? ""),
          option.help + (option.repeating ? " (repeatable)" : "")
        )
      }
      lines += HelpLayout.rows(rows + [("-h, --help", "show this help")])
    }
    if !discussion.isEmpty {
      lines.append("")
      lines += HelpLayout.wrapParagraph(discussion)
    }
    return lines.joined(separator: "\n")
  }
}

/// How help text is laid out: rows of a name and its description in two columns, and lines
/// wrapped at word boundaries to ``width``.
package enum HelpLayout {
  /// The widest a help line may be, in characters.
  package static let width = 100

  /// Rows `  NAME  DESCRIPTION`: every description starts two columns after the longest name,
  /// and one too long for its line continues on the next, under itself.
  static func rows(_ rows: [(name: String, description: String)]) -> [String] {
    let column = 2 + (rows.map(\.name.count).max() ?? 0) + 2
    return rows.flatMap { row in
      let lead = "  " + row.name
      return wrap(
        row.description, first: lead + String(repeating: " ", count: column - lead.count),
        rest: String(repeating: " ", count: column))
    }
  }

  /// `text`'s words after `first`, then on lines that start with `rest`.
  static func wrap(_ text: String, first: String = "", rest: String = "") -> [String] {
    let words = text.split(separator: " ").map(String.init)
    guard !first.isEmpty else { return wrap(units: words, rest: rest) }
    return wrap(units: [first] + words, rest: rest, firstIsLead: true)
  }

  /// Joins `units` with single spaces into lines no wider than ``width``; a unit that does not
  /// fit starts a new line, which begins with `rest`. With `firstIsLead` the first unit is a
  /// lead (a row's name column) that the next unit follows without a space.
  static func wrap(units: [String], rest: String, firstIsLead: Bool = false) -> [String] {
    var lines: [String] = []
    var line = ""
    var empty = true
    for (index, unit) in units.enumerated() {
      if index == 0, firstIsLead {
        line = unit
        continue
      }
      if !empty, line.count + 1 + unit.count > width {
        lines.append(line)
        line = rest
        empty = true
      }
      line += (empty ? "" : " ") + unit
      empty = false
    }
    lines.append(line)
    return lines
  }

  /// A block of text with its own line breaks: each line wider than ``width`` is wrapped, its
  /// continuation indented like it, or under its second column when it is a row
  /// (`  NAME  TEXT`).
  static func wrapParagraph(_ text: String) -> [String] {
    text.split(separator: "\n", omittingEmptySubsequences: false).flatMap { line -> [String] in
      let line = String(line)
      guard line.count > width else { return [line] }
      let indent = line.prefix { $0 == " " }.count
      var column = indent
      // A row: indentation, one token, two or more spaces, then text.
      let body = line.dropFirst(indent)
      if let token = body.firstIndex(of: " "), body[token...].hasPrefix("  ") {
        let gap = body[token...].prefix { $0 == " " }.count
        column = indent + body.distance(from: body.startIndex, to: token) + gap
      }
      let lead = String(line.prefix(column))
      return wrap(
        String(line.dropFirst(column)), first: lead.isEmpty ? "" : lead,
        rest: String(repeating: " ", count: column))
    }
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
      let (option, name, inlineValue) = try lookUp(argument)
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
        value = try nextValue(for: option, in: arguments, at: &index)
      }
      if !option.repeating, values[name] != nil {
        throw UsageError("--\(name) may be given only once", command: path)
      }
      values[name, default: []].append(value)
    }
    if !wantsHelp {
      try checkComplete(values: values, positionals: positionals)
    }
    return ParsedArguments(
      values: values, flags: flags, positionals: positionals, wantsHelp: wantsHelp)
  }

  /// The option an `--name` or `--name=value` argument names, with its inline value.
  private func lookUp(_ argument: String) throws(UsageError) -> (
    option: Option, name: String, inlineValue: String?
  ) {
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
    return (option, name, inlineValue)
  }

  /// The argument at `index`, the value of `option` given as a separate word; `index` moves past
  /// it.
  private func nextValue(for option: Option, in arguments: [String], at index: inout Int)
    throws(UsageError) -> String
  {
    guard index < arguments.count else {
      throw UsageError(
        "--\(option.name) needs a value (\(option.valueName ?? "VALUE"))", command: path)
    }
    defer { index += 1 }
    return arguments[index]
  }

  /// Checks that every required option and positional was given, and no extra positional.
  private func checkComplete(values: [String: [String]], positionals: [String])
    throws(UsageError)
  {
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
}
