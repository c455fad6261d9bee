import ArgumentParser

/// The `--no-color` flag every command with text output takes: one declaration, one help text,
/// and the decision made in one place (``Console/usesColor(refusedByFlag:)``).
struct ColorOption: ParsableArguments {
    @Flag(
        name: .customLong("no-color"),
        help:
            "Never colour the text output. Colour is used only on a terminal, and never when the NO_COLOR environment variable is set and not empty (https://no-color.org) or TERM is dumb."
    )
    var noColor = false

    /// Whether this command's text output is coloured.
    var usesColor: Bool { Console.usesColor(refusedByFlag: noColor) }
}
