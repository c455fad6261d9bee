import BinaryFixtures
import Foundation
import Testing
import TypeLayout

// A library built twice: v1, and v2 with one change of each kind. The same declarations are
// compiled into this test module below (FixtureV1/FixtureV2), so sizes and offsets the CLI
// reports from the binaries are checked against MemoryLayout of identical types.

private let fixtureCommon = """
    public struct Header { public var magic: UInt32 = 0; public var version: UInt16 = 0; public var flags: UInt16 = 0 }
    """

private let fixtureV1 =
    fixtureCommon + """

        public struct Removed { public var x: Int = 0 }
        public struct Grows { public var a: Int32 = 0 }
        public struct Aligns { public var a: Int16 = 0 }
        public struct Shrinks { public var a: Int = 0; public var b: Int = 0 }
        public struct Moves { public var a: UInt32 = 0; public var b: UInt8 = 0 }
        public struct Retypes { public var a: Int32 = 0 }
        public struct Renames { public var a: Int = 0; public var b: Int = 0 }
        public struct Reorders { public var a: Int = 0; public var b: Int = 0 }
        public struct Holey { public var a: UInt8 = 0; public var b: UInt64 = 0 }
        public enum Mode { case a, b }
        public enum Gone { case a, b, c }
        open class Base1 { public init() {} }
        open class Base2 { public init() {} }
        open class Child: Base1 { public var x = 0 }
        public final class Node { public var a = 0 }
        """

private let fixtureV2 =
    fixtureCommon + """

        public struct Added { public var x: Int = 0 }
        public struct Grows { public var a: Int32 = 0; public var b: Int32 = 0 }
        public struct Aligns { public var a: Int64 = 0 }
        public struct Shrinks { public var a: Int = 0 }
        public struct Moves { public var a: UInt32 = 0; public var c: UInt32 = 0; public var b: UInt8 = 0 }
        public struct Retypes { public var a: UInt32 = 0 }
        public struct Renames { public var a: Int = 0; public var beta: Int = 0 }
        public struct Reorders { public var b: Int = 0; public var a: Int = 0 }
        public struct Holey { public var a: UInt8 = 0; public var c: UInt8 = 0; public var b: UInt64 = 0 }
        public enum Mode { case a, b, c }
        public enum Gone { case a, b }
        open class Base1 { public init() {} }
        open class Base2 { public init() {} }
        open class Child: Base2 { public var x = 0 }
        public final class Node { public var a = 0; public var b = 0 }
        """

/// v1 plus a new type only: a compatible change.
private let fixtureV1Plus = fixtureV1 + "\npublic struct Extra { public var y: Int = 0 }\n"

private enum FixtureV1 {
    struct Holey { var a: UInt8; var b: UInt64 }
    struct HoleyReordered { var b: UInt64; var a: UInt8 }
    struct Grows { var a: Int32 }
    struct Aligns { var a: Int16 }
    struct Moves { var a: UInt32; var b: UInt8 }
}

private enum FixtureV2 {
    struct Grows { var a: Int32; var b: Int32 }
    struct Aligns { var a: Int64 }
    struct Moves { var a: UInt32; var c: UInt32; var b: UInt8 }
}

/// Builds the fixture libraries once per test run and runs the `typeinfo` executable.
enum CheckFixture {
    struct Built: Sendable {
        var v1: String
        var v1Rebuilt: String
        var v1Plus: String
        var v2: String
        var directory: String
    }

    static let built: Result<Built, FixtureFailure> = {
        let directory = ScratchDirectory.path(named: "typeinfo-check-fixture")
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            func build(_ source: String, _ name: String) throws -> String {
                let sourcePath = directory + "/\(name).swift"
                try Data(source.utf8).write(to: URL(fileURLWithPath: sourcePath))
                let output = directory + "/lib\(name).so"
                let result = try run(swiftc, ["-emit-library", "-module-name", "Wire", sourcePath, "-o", output], in: directory)
                guard result.status == 0 else { throw FixtureFailure(message: "swiftc failed: \(result.error)") }
                return output
            }
            return .success(
                Built(
                    v1: try build(fixtureV1, "v1"), v1Rebuilt: try build(fixtureV1, "v1again"),
                    v1Plus: try build(fixtureV1Plus, "v1plus"), v2: try build(fixtureV2, "v2"), directory: directory
                ))
        } catch let failure as FixtureFailure {
            return .failure(failure)
        } catch {
            return .failure(FixtureFailure(message: "\(error)"))
        }
    }()

    /// The compiler: `$SWIFTC`, else the toolchain's, else from PATH.
    static let swiftc: String = {
        if let explicit = ProcessInfo.processInfo.environment["SWIFTC"] { return explicit }
        for candidate in ["/opt/swift/usr/bin/swiftc", "/usr/bin/swiftc"] where FileManager.default.isExecutableFile(atPath: candidate) {
            return candidate
        }
        return "swiftc"
    }()

    /// The toolchain's clang beside swiftc, else `clang` from PATH.
    static let clang: String = {
        let besideSwiftc = URL(fileURLWithPath: swiftc).deletingLastPathComponent().appendingPathComponent("clang").path
        return FileManager.default.isExecutableFile(atPath: besideSwiftc) ? besideSwiftc : "clang"
    }()

    /// Compiles a C source with `clang -g -c` into the fixture directory.
    static func compileC(_ source: String, _ name: String) throws -> String {
        let directory = try built.get().directory
        let sourcePath = directory + "/\(name).c"
        try Data(source.utf8).write(to: URL(fileURLWithPath: sourcePath))
        let output = directory + "/\(name).o"
        let result = try run(clang, ["-g", "-c", sourcePath, "-o", output], in: directory)
        guard result.status == 0 else { throw FixtureFailure(message: "clang failed: \(result.error)") }
        return output
    }

    /// The `typeinfo` executable SwiftPM built beside this test bundle (or `$TYPEINFO_EXECUTABLE`).
    static let typeinfo: String = {
        if let explicit = ProcessInfo.processInfo.environment["TYPEINFO_EXECUTABLE"] { return explicit }
        let bundle = URL(fileURLWithPath: CommandLine.arguments.first ?? ".").deletingLastPathComponent()
        return bundle.appendingPathComponent("typeinfo").path
    }()

    struct Output: Sendable {
        var status: Int32
        var output: String
        var error: String
    }

    static func typeinfo(_ arguments: [String]) throws -> Output {
        guard FileManager.default.isExecutableFile(atPath: typeinfo) else {
            throw FixtureFailure(message: "no typeinfo executable at \(typeinfo): run `swift build` first or set TYPEINFO_EXECUTABLE")
        }
        return try run(typeinfo, arguments, in: try built.get().directory)
    }

    static func run(_ program: String, _ arguments: [String], in directory: String) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program.hasPrefix("/") ? program : "/usr/bin/env")
        process.arguments = program.hasPrefix("/") ? arguments : [program] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read standard error on another thread so neither pipe can fill up and block the child.
        let errorBox = ErrorBox()
        let reader = Thread { errorBox.set(err.fileHandleForReading.readDataToEndOfFile()) }
        reader.start()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let errData = errorBox.wait()
        return Output(
            status: process.terminationStatus, output: String(decoding: outData, as: UTF8.self),
            error: String(decoding: errData, as: UTF8.self))
    }

    /// Standard error's bytes, handed from the reader thread.
    final class ErrorBox: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private var data = Data()

        func set(_ value: Data) {
            data = value
            done.signal()
        }

        func wait() -> Data {
            done.wait()
            return data
        }
    }
}

struct FixtureFailure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

@Suite(.serialized) struct LayoutCheckCommandTests {
    /// `typeinfo diff v1 v2 --format json`, decoded.
    func diffReport() throws -> LayoutDiffReport {
        let built = try CheckFixture.built.get()
        let result = try CheckFixture.typeinfo(["diff", built.v1, built.v2, "--format", "json", "--type", "Wire."])
        #expect(result.status == 1, "\(result.error)")
        return try JSONDecoder().decode(LayoutDiffReport.self, from: Data(result.output.utf8))
    }

    @Test func everyChangeKindIsDetectedAndClassified() throws {
        let report = try diffReport()
        func changes(_ type: String) -> [LayoutDiffReport.Entry] { report.changes.filter { $0.type == "Wire.\(type)" } }
        func has(_ type: String, _ kind: LayoutChangeKind, _ severity: LayoutChangeSeverity, member: String? = nil) -> Bool {
            changes(type).contains { $0.change == kind && $0.severity == severity && (member == nil || $0.member == member) }
        }
        #expect(changes("Header").isEmpty, "an unchanged type reports nothing")
        #expect(has("Added", .typeAdded, .compatible))
        #expect(has("Removed", .typeRemoved, .breaking))
        #expect(has("Grows", .sizeChanged, .breaking) && has("Grows", .strideChanged, .breaking))
        #expect(has("Grows", .fieldAdded, .breaking, member: "b"))
        #expect(has("Aligns", .alignmentChanged, .breaking) && has("Aligns", .fieldRetyped, .breaking, member: "a"))
        #expect(has("Shrinks", .fieldRemoved, .breaking, member: "b"))
        #expect(has("Moves", .fieldMoved, .breaking, member: "b") && has("Moves", .fieldAdded, .breaking, member: "c"))
        #expect(changes("Retypes").map(\.change) == [.fieldRetyped])
        #expect(changes("Renames").map(\.change) == [.fieldRenamed] && has("Renames", .fieldRenamed, .compatible, member: "b"))
        #expect(has("Reorders", .fieldsReordered, .breaking) && changes("Reorders").filter { $0.change == .fieldMoved }.count == 2)
        #expect(changes("Holey").map(\.change) == [.fieldAdded] && has("Holey", .fieldAdded, .compatible, member: "c"))
        #expect(changes("Mode").map(\.change) == [.caseAdded] && has("Mode", .caseAdded, .compatible, member: "c"))
        #expect(has("Gone", .caseRemoved, .breaking, member: "c"))
        #expect(has("Child", .superclassChanged, .breaking))
        #expect(has("Node", .instanceSizeChanged, .breaking) && has("Node", .fieldAdded, .breaking, member: "b"))
    }

    @Test func reportedNumbersAreTheCompilers() throws {
        let report = try diffReport()
        func change(_ type: String, _ kind: LayoutChangeKind) -> LayoutDiffReport.Entry? {
            report.changes.first { $0.type == "Wire.\(type)" && $0.change == kind }
        }
        #expect(change("Grows", .sizeChanged)?.from == .int(MemoryLayout<FixtureV1.Grows>.size))
        #expect(change("Grows", .sizeChanged)?.to == .int(MemoryLayout<FixtureV2.Grows>.size))
        #expect(change("Aligns", .alignmentChanged)?.to == .int(MemoryLayout<FixtureV2.Aligns>.alignment))
        #expect(change("Moves", .fieldMoved)?.from == LayoutValue(MemoryLayout<FixtureV1.Moves>.offset(of: \.b)))
        #expect(change("Moves", .fieldMoved)?.to == LayoutValue(MemoryLayout<FixtureV2.Moves>.offset(of: \.b)))
    }

    @Test func anIdenticalRebuildHasNoChanges() throws {
        let built = try CheckFixture.built.get()
        let diff = try CheckFixture.typeinfo(["diff", built.v1, built.v1Rebuilt])
        #expect(diff.status == 0, "\(diff.output)\(diff.error)")
        #expect(diff.output.contains("No layout changes in"))

        let snapshot = built.directory + "/v1.layouts.json"
        #expect(try CheckFixture.typeinfo(["snapshot", built.v1, "-o", snapshot]).status == 0)
        let check = try CheckFixture.typeinfo(["check", built.v1Rebuilt, "--against", snapshot])
        #expect(check.status == 0, "\(check.output)\(check.error)")
    }

    @Test func checkExitCodes() throws {
        let built = try CheckFixture.built.get()
        let snapshot = built.directory + "/exit.layouts.json"
        #expect(try CheckFixture.typeinfo(["snapshot", built.v1, "-o", snapshot, "--type", "Wire."]).status == 0)

        let changed = try CheckFixture.typeinfo(["check", built.v2, "--against", snapshot])
        #expect(changed.status == 1)
        #expect(
            changed.output.contains(
                "struct Wire.Grows\n  BREAKING    size \(MemoryLayout<FixtureV1.Grows>.size) -> \(MemoryLayout<FixtureV2.Grows>.size)\n"))
        #expect(changed.output.hasSuffix(" removed).\n"))

        // Only compatible changes: exit 1 by default, 0 with --fail-on breaking.
        #expect(try CheckFixture.typeinfo(["check", built.v1Plus, "--against", snapshot]).status == 1)
        #expect(try CheckFixture.typeinfo(["check", built.v1Plus, "--against", snapshot, "--fail-on", "breaking"]).status == 0)
        #expect(try CheckFixture.typeinfo(["check", built.v2, "--against", snapshot, "--fail-on", "breaking"]).status == 1)

        // Usage and input errors: exit 2 with one line naming the problem.
        let missingBinary = try CheckFixture.typeinfo(["check", built.directory + "/nope.so", "--against", snapshot])
        #expect(missingBinary.status == 2 && missingBinary.error.contains("nope.so"))
        let garbage = built.directory + "/garbage.json"
        try Data("{\"format\": 1}".utf8).write(to: URL(fileURLWithPath: garbage))
        let badSnapshot = try CheckFixture.typeinfo(["check", built.v1, "--against", garbage])
        #expect(badSnapshot.status == 2 && badSnapshot.error.contains("garbage.json"))
        #expect(try CheckFixture.typeinfo(["check", built.v1]).status == 2)
        let notELF = try CheckFixture.typeinfo(["check", snapshot, "--against", snapshot])
        #expect(notELF.status == 2)
    }

    @Test func theSnapshotsSelectionIsUsedAgain() throws {
        let built = try CheckFixture.built.get()
        let snapshot = built.directory + "/header.layouts.json"
        #expect(try CheckFixture.typeinfo(["snapshot", built.v1, "-o", snapshot, "--type", "Wire.Header"]).status == 0)
        let recorded = try LayoutSnapshot(jsonData: Data(contentsOf: URL(fileURLWithPath: snapshot)))
        #expect(recorded.types.map(\.name) == ["Wire.Header"])
        #expect(recorded.selection?.typePatterns == ["Wire.Header"])
        // v2 changes many types, but not Header: the recorded selection keeps them out.
        let check = try CheckFixture.typeinfo(["check", built.v2, "--against", snapshot])
        #expect(check.status == 0, "\(check.output)")
        let diff = try CheckFixture.typeinfo(["diff", snapshot, built.v2])
        #expect(diff.status == 0, "\(diff.output)")
        // Filters given on the command line replace the recorded ones.
        let wider = try CheckFixture.typeinfo(["check", built.v2, "--against", snapshot, "--type", "Wire."])
        #expect(wider.status == 1)
    }

    @Test func jsonCheckReportMatchesTheTextOne() throws {
        let built = try CheckFixture.built.get()
        let snapshot = built.directory + "/json.layouts.json"
        #expect(try CheckFixture.typeinfo(["snapshot", built.v1, "-o", snapshot]).status == 0)
        let json = try CheckFixture.typeinfo(["check", built.v2, "--against", snapshot, "--format", "json"])
        #expect(json.status == 1)
        let report = try JSONDecoder().decode(LayoutDiffReport.self, from: Data(json.output.utf8))
        let text = try CheckFixture.typeinfo(["check", built.v2, "--against", snapshot])
        for entry in report.changes where entry.change != .typeAdded && entry.change != .typeRemoved {
            #expect(text.output.contains(entry.message), "\(entry.message)")
        }
        #expect(report.summary.breaking > 0 && report.old == snapshot && report.new == built.v2)
    }

    @Test func layoutShowsTheCompilersHoleAndASuggestion() throws {
        let built = try CheckFixture.built.get()
        let text = try CheckFixture.typeinfo(["layout", built.v1, "--type", "Wire.Holey"])
        #expect(text.status == 0, "\(text.error)")
        let holeStart = MemoryLayout<UInt8>.size
        let holeSize = (MemoryLayout<FixtureV1.Holey>.offset(of: \.b) ?? 0) - holeStart
        #expect(
            text.output.contains(
                "\(String(repeating: " ", count: 8 - String(holeStart).count))\(holeStart)\(String(repeating: " ", count: 6 - String(holeSize).count))\(holeSize)  ---- hole, \(holeSize) bytes ----"
            ), "\(text.output)")
        // Same stride, smaller size (which matters where Swift packs the next field into the tail).
        #expect(MemoryLayout<FixtureV1.Holey>.stride == MemoryLayout<FixtureV1.HoleyReordered>.stride)
        #expect(
            text.output.contains(
                "reorder to shrink the size by \(MemoryLayout<FixtureV1.Holey>.size - MemoryLayout<FixtureV1.HoleyReordered>.size) bytes: b, a"
            ))

        let json = try CheckFixture.typeinfo(["layout", built.v1, "--type", "Wire.Holey", "--format", "json"])
        let report = try JSONDecoder().decode(LayoutHolesReport.self, from: Data(json.output.utf8))
        #expect(report.types.first?.holeBytes == holeSize)
        #expect(report.types.first?.reorder?.suggestedSize == MemoryLayout<FixtureV1.HoleyReordered>.size)

        let svg = try CheckFixture.typeinfo(["layout", built.v1, "--type", "Wire.Holey", "--format", "svg"])
        #expect(svg.status == 0 && svg.output.hasPrefix("<?xml") && svg.output.contains("</svg>"))
        let ambiguous = try CheckFixture.typeinfo(["layout", built.v1, "--type", "Wire.", "--format", "svg"])
        #expect(ambiguous.status == 2 && ambiguous.error.contains("pick one with --type"))
        let missing = try CheckFixture.typeinfo(["layout", built.v1, "--type", "Wire.NoSuchType"])
        #expect(missing.status == 2 && missing.error.contains("no type matches 'Wire.NoSuchType'"))
    }

    @Test func cTypesFromDWARFAreCheckedToo() throws {
        let v1 = try CheckFixture.compileC(
            """
            struct packet { char kind; long length; };
            union value { long wide; int narrow; };
            struct packet p; union value v;
            """, "c1")
        let v2 = try CheckFixture.compileC(
            """
            struct packet { char kind; char flags; short port; long length; };
            union value { long wide; int narrow; char byte; };
            struct packet p; union value v;
            """, "c2")
        let diff = try CheckFixture.typeinfo(["diff", v1, v2, "--format", "json"])
        #expect(diff.status == 1, "\(diff.error)")
        let report = try JSONDecoder().decode(LayoutDiffReport.self, from: Data(diff.output.utf8))
        let kinds = Set(report.changes.map { "\($0.type) \($0.change.rawValue) \($0.member ?? "") \($0.severity.rawValue)" })
        #expect(
            kinds == [
                "struct packet fieldAdded flags compatible", "struct packet fieldAdded port compatible",
                "union value fieldAdded byte compatible",
            ], "members added into the hole and into the union's size move nothing")
        let same = try CheckFixture.typeinfo(["diff", v1, v1])
        #expect(same.status == 0)
    }
}
