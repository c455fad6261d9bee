import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TypeLayout

/// The options `check` and `diff` share: report format, exit status, suppressions.
struct DiffReportOptions: ParsableArguments {
    @Option(
        help:
            "Output format: text (a readable report), json (docs/layout-checks.md) or markdown (for a pull-request comment or $GITHUB_STEP_SUMMARY)."
    )
    var format: ReportFormat = .text

    @Option(name: .customLong("fail-on"), help: "Which changes make the exit status 1: any (default) or breaking.")
    var failOn: FailurePolicy = .any

    @Option(
        name: .customLong("exit-status"),
        help: ArgumentHelp(
            "plain: 0 unchanged, 1 changed, 2 error (default). bits: abidiff's bit field, 0 unchanged, 4 compatible changes only, 12 (4|8) breaking changes, 2 error; --fail-on does not apply.",
            valueName: "mode"))
    var exitStatus: ExitStatusMode = .plain

    @Option(
        name: .customLong("suppressions"),
        help: ArgumentHelp(
            "A file of accepted changes (docs/layout-checks.md, 'Suppressions'); they are shown with their reason but do not fail the check. Repeatable.",
            valueName: "file"))
    var suppressionFiles: [String] = []

    /// Reads every suppressions file: the given ones, then `extraPath` if that file exists.
    func suppressions(beside extraPath: String? = nil) throws -> LayoutSuppressions {
        var paths = suppressionFiles
        if let extraPath, !paths.contains(extraPath), FileManager.default.fileExists(atPath: extraPath) {
            paths.append(extraPath)
        }
        var all = LayoutSuppressions()
        for path in paths {
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw LayoutInput.fail("\(path): cannot read: \(Console.describe(fileError: error))")
            }
            do {
                all.rules += try LayoutSuppressions(parsing: String(decoding: data, as: UTF8.self), path: path).rules
            } catch {
                throw LayoutInput.fail("\(path):\(error.line): \(error.message)")
            }
        }
        return all
    }

    /// The suppressions file `check` reads without being told: `layouts.json` ->
    /// `layouts.suppressions`, committed beside the snapshot.
    static func suppressionsPath(besideSnapshot snapshot: String) -> String {
        (snapshot.hasSuffix(".json") ? String(snapshot.dropLast(5)) : snapshot) + ".suppressions"
    }

    /// Prints the diff in the chosen format and exits with the status the options ask for.
    func finish(_ diff: LayoutDiff, title: String, old: String, new: String) throws {
        switch format {
        case .text: Console.write(diff.textReport(title: title))
        case .json: Console.write(try diff.jsonData(old: old, new: new))
        case .markdown: Console.write(diff.markdownReport(title: title))
        }
        let status: Int32
        switch exitStatus {
        case .plain:
            status = (failOn == .any ? !diff.isEmpty : diff.hasBreakingChanges) ? 1 : 0
        case .bits:
            status = (diff.isEmpty ? 0 : ExitStatusMode.changeBit) | (diff.hasBreakingChanges ? ExitStatusMode.breakingBit : 0)
        }
        if status != 0 { throw ExitCode(status) }
    }
}

/// The output formats of `typeinfo check` and `typeinfo diff`.
enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
    case text
    case json
    case markdown
}

/// Which changes make `check` and `diff` exit with status 1.
enum FailurePolicy: String, ExpressibleByArgument, CaseIterable {
    /// Any change, compatible or not.
    case any
    /// Only breaking changes.
    case breaking
}

/// How `check` and `diff` encode their result in the exit status.
enum ExitStatusMode: String, ExpressibleByArgument, CaseIterable {
    /// 0 unchanged, 1 changed, 2 usage or input error.
    case plain
    /// abidiff's bit field: 2 error, 4 changed, 8 (with 4) breaking.
    case bits

    /// Set when anything (not suppressed) changed.
    static let changeBit: Int32 = 4
    /// Set, with ``changeBit``, when a change is breaking.
    static let breakingBit: Int32 = 8
}
