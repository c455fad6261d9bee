import Foundation
import Testing
import TypeLayout

// The abidiff and pahole habits of `check`, `diff` and `layout`, run end to end on the fixture
// libraries LayoutCheckCommandTests builds (CheckFixture); numbers come from MemoryLayout of
// the same declarations compiled here.

private enum Grown {
    struct V1 { var a: Int32 }
    struct V2 { var a: Int32; var b: Int32 }
}

/// 56 bytes of `a`, then `c` across the 64-byte boundary: the same declaration as `wideSource`.
private struct Wide {
    var a: (Int64, Int64, Int64, Int64, Int64, Int64, Int64); var b: UInt16; var c: (UInt32, UInt32, UInt32); var d: Int64
}
private let wideSource = """
    public struct Wide { public var a: (Int64, Int64, Int64, Int64, Int64, Int64, Int64) = (0, 0, 0, 0, 0, 0, 0); \
    public var b: UInt16 = 0; public var c: (UInt32, UInt32, UInt32) = (0, 0, 0); public var d: Int64 = 0 }
    public struct Holey { public var a: UInt8 = 0; public var b: UInt64 = 0 }
    public enum Mode { case a, b }
    """
private struct Holey { var a: UInt8; var b: UInt64 }
private enum Mode { case a, b }

@Suite(.serialized) struct LayoutParityCommandTests {
    /// A v1 snapshot of the Wire types, and its path.
    func snapshot(_ name: String) throws -> (built: CheckFixture.Built, path: String) {
        let built = try CheckFixture.built.get()
        let path = built.directory + "/\(name).json"
        let result = try CheckFixture.typeinfo(["snapshot", built.v1, "-o", path, "--type", "Wire."])
        #expect(result.status == 0, "\(result.error)")
        return (built, path)
    }

    func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    @Test func suppressionsAcceptChangesAndShowTheirReason() throws {
        let (built, snapshot) = try snapshot("suppress.layouts")
        let sizeLine = "size \(MemoryLayout<Grown.V1>.size) -> \(MemoryLayout<Grown.V2>.size)"
        // Beside the snapshot (layouts.json -> layouts.suppressions): read without being named.
        let beside = built.directory + "/suppress.layouts.suppressions"
        try write(
            """
            typeinfo-layout-suppressions 1
            # Grows gained a field in 2.0; every reader was rebuilt.
            accept type=Wire.Grows change=sizeChanged,strideChanged,fieldAdded reason="Grows \\"v2\\" is rebuilt everywhere"
            """, to: beside)
        defer { try? FileManager.default.removeItem(atPath: beside) }
        let text = try CheckFixture.typeinfo(["check", built.v2, "--against", snapshot])
        #expect(text.status == 1, "other types still changed")
        #expect(!text.output.contains("struct Wire.Grows\n"), "\(text.output)")
        #expect(
            text.output.contains(
                "Suppressed (accepted) changes:\n  BREAKING    struct Wire.Grows: \(sizeLine)\n"
                    + "              accepted by \(beside):3: Grows \"v2\" is rebuilt everywhere\n"), "\(text.output)")
        #expect(text.output.contains(" 3 accepted changes suppressed.\n"))

        // Accepting every change, by severity, from --suppressions: exit 0, and the JSON lists
        // exactly the changes the unsuppressed check reports.
        let all = built.directory + "/all.suppressions"
        try write("typeinfo-layout-suppressions 1\naccept severity=breaking reason=r1\naccept severity=compatible reason=r2\n", to: all)
        let plain = try CheckFixture.typeinfo(["diff", snapshot, built.v2, "--format", "json"])
        let accepted = try CheckFixture.typeinfo(["diff", snapshot, built.v2, "--format", "json", "--suppressions", all])
        #expect(plain.status == 1 && accepted.status == 0, "\(accepted.error)")
        let before = try JSONDecoder().decode(LayoutDiffReport.self, from: Data(plain.output.utf8))
        let after = try JSONDecoder().decode(LayoutDiffReport.self, from: Data(accepted.output.utf8))
        #expect(after.changes.isEmpty && after.suppressed?.map(\.change) == before.changes)
        #expect(after.suppressed?.allSatisfy { $0.reason == ($0.change.severity == .breaking ? "r1" : "r2") } == true)
        #expect(before.suppressed == nil)
    }

    @Test func malformedSuppressionsNameTheFileAndLine() throws {
        let (built, snapshot) = try snapshot("malformed.layouts")
        let file = built.directory + "/bad.suppressions"
        let cases: [(String, String)] = [
            ("typeinfo-layout-suppressions 1\n\naccept tpye=Wire.Grows reason=x\n", ":3: unknown key 'tpye'"),
            ("typeinfo-layout-suppressions 1\naccept type=/Wire.(/ reason=x\n", ":2: type=/Wire.(/: not a valid regular expression"),
            ("typeinfo-layout-suppressions 1\naccept change=sizeGrew reason=x\n", ":2: unknown change 'sizeGrew'"),
            ("typeinfo-layout-suppressions 1\naccept type=Wire.Grows\n", ":2: a rule needs reason="),
            ("typeinfo-layout-suppressions 1\naccept reason=\"everything\"\n", ":2: this rule would accept every change"),
            ("typeinfo-layout-suppressions 1\naccept type=Wire.Grows reason=\"open\n", ":2: a quoted value is not closed"),
            ("typeinfo-layout-suppressions 2\n", ":1: version 2 is not supported"),
            ("accept type=Wire.Grows reason=x\n", ":1: the first line must be 'typeinfo-layout-suppressions 1'"),
        ]
        for (text, message) in cases {
            try write(text, to: file)
            let result = try CheckFixture.typeinfo(["check", built.v2, "--against", snapshot, "--suppressions", file])
            #expect(result.status == 2 && result.error.hasPrefix("typeinfo: \(file)\(message)"), "\(text): \(result.error)")
            #expect(result.output.isEmpty)
        }
    }

    @Test func bitFieldExitStatusTellsCompatibleFromBreaking() throws {
        let (built, snapshot) = try snapshot("bits.layouts")
        func status(_ arguments: [String]) throws -> Int32 { try CheckFixture.typeinfo(arguments).status }
        #expect(try status(["check", built.v1Rebuilt, "--against", snapshot, "--exit-status", "bits"]) == 0)
        #expect(try status(["check", built.v1Plus, "--against", snapshot, "--exit-status", "bits", "--type", "Wire."]) == 4)
        #expect(try status(["check", built.v2, "--against", snapshot, "--exit-status", "bits"]) == 12)
        #expect(try status(["diff", built.v1, built.v1Plus, "--exit-status", "bits"]) == 4)
        #expect(try status(["check", built.directory + "/nope.so", "--against", snapshot, "--exit-status", "bits"]) == 2)
        let unknownMode = try CheckFixture.typeinfo(["check", built.v2, "--against", snapshot, "--exit-status", "bitz"])
        #expect(unknownMode.status == 2 && unknownMode.error.contains("bitz"))
    }

    @Test func unknownOptionsAndValuesAreUsageErrorsWithStatus2() throws {
        // docs/layout-checks.md: exit 2 for an unknown option or option value, in every mode.
        let cases: [([String], String)] = [
            (["check", "x", "--bogus"], "Unknown option '--bogus'"),
            (["check", "x", "--bogus", "--exit-status", "bits"], "Unknown option '--bogus'"),
            (["diff", "a", "b", "--format", "yaml"], "The value 'yaml' is invalid for '--format <format>'"),
            (["layout", "a", "--expand", "x"], "The value 'x' is invalid for '--expand <depth>'"),
            (["layout", "a", "--expand", "65"], "--expand 65: give a depth from 0 (no expansion) to 64"),
        ]
        for (arguments, message) in cases {
            let result = try CheckFixture.typeinfo(arguments)
            #expect(result.status == 2 && result.error.contains(message), "\(arguments): \(result.status) \(result.error)")
        }
    }

    @Test func markdownReportForPullRequests() throws {
        let (built, snapshot) = try snapshot("markdown.layouts")
        let result = try CheckFixture.typeinfo(["check", built.v2, "--against", snapshot, "--format", "markdown"])
        let text = try CheckFixture.typeinfo(["check", built.v2, "--against", snapshot])
        #expect(result.status == 1)
        let summary = try #require(text.output.split(separator: "\n").last)
        #expect(result.output.hasPrefix("### Layout check: \(summary)\n"))
        #expect(
            result.output.contains(
                "#### struct `Wire.Grows`\n\n| severity | change |\n| --- | --- |\n"
                    + "| **BREAKING** | size \(MemoryLayout<Grown.V1>.size) -&gt; \(MemoryLayout<Grown.V2>.size) |\n"), "\(result.output)")
        #expect(result.output.contains("#### Removed types\n") && result.output.contains("| **BREAKING** | struct `Wire.Removed` |"))
    }

    @Test func cacheLinesAndSizesSummary() throws {
        let built = try CheckFixture.built.get()
        let source = built.directory + "/wide.swift"
        let library = built.directory + "/libwide.so"
        try write(wideSource, to: source)
        let compiled = try CheckFixture.run(
            CheckFixture.swiftc, ["-emit-library", "-module-name", "Wide", source, "-o", library], in: built.directory)
        try #require(compiled.status == 0, "\(compiled.error)")

        let text = try CheckFixture.typeinfo(["layout", library, "--type", "Wide.Wide"])
        #expect(text.status == 0, "\(text.error)")
        let offsetC = try #require(MemoryLayout<Wide>.offset(of: \.c))
        let offsetD = try #require(MemoryLayout<Wide>.offset(of: \.d))
        let sizeC = MemoryLayout<(UInt32, UInt32, UInt32)>.size
        #expect(offsetC / 64 != (offsetC + sizeC - 1) / 64, "the fixture straddles")
        let lines = (MemoryLayout<Wide>.size - 1) / 64 + 1
        #expect(
            text.output.contains(
                "  ---- cache line 1 starts at offset 64 (\(offsetD - 64) bytes before this row, inside the one above) ----\n"
                    + String(repeating: " ", count: 8 - String(offsetD).count) + "\(offsetD)"), "\(text.output)")
        #expect(text.output.contains("  cache lines: \(lines) of 64 bytes; 'c' (offset \(offsetC), size \(sizeC)) straddles a boundary\n"))
        let wider = try CheckFixture.typeinfo(["layout", library, "--type", "Wide.Wide", "--cacheline", "128"])
        #expect(
            wider.output.contains("  cache lines: \((MemoryLayout<Wide>.size - 1) / 128 + 1) of 128 bytes\n")
                && !wider.output.contains("---- cache line"))
        let bad = try CheckFixture.typeinfo(["layout", library, "--cacheline=-1"])
        #expect(bad.status == 2 && bad.error.contains("--cacheline -1: give a size in bytes"), "\(bad.error)")

        let sizes = try CheckFixture.typeinfo(["layout", library, "--sizes", "--format", "json"])
        #expect(sizes.status == 0, "\(sizes.error)")
        let rows = try JSONDecoder().decode(LayoutSizes.self, from: Data(sizes.output.utf8)).rows
        let holey = try #require(rows.first { $0.name == "Wide.Holey" })
        #expect(holey.size == MemoryLayout<Holey>.size && holey.stride == MemoryLayout<Holey>.stride && holey.holes == 1)
        #expect(holey.wastedBytes == MemoryLayout<Holey>.stride - MemoryLayout<UInt8>.size - MemoryLayout<UInt64>.size)
        let wide = try #require(rows.first { $0.name == "Wide.Wide" })
        #expect(wide.size == MemoryLayout<Wide>.size && wide.cacheLines == lines)
        let mode = try #require(rows.first { $0.name == "Wide.Mode" })
        #expect(mode.size == MemoryLayout<Mode>.size && mode.holes == nil && mode.wastedBytes == nil, "an enum's bytes are not classified")
        #expect(zip(rows, rows.dropFirst()).allSatisfy { ($0.wastedBytes ?? -1) >= ($1.wastedBytes ?? -1) }, "sorted by waste")
        let byName = try CheckFixture.typeinfo(["layout", library, "--sizes", "--sort", "name"])
        let names = byName.output.split(separator: "\n").filter { $0.contains(" struct ") }.map {
            String($0.split(separator: " ").last ?? "")
        }
        #expect(names == names.sorted() && names.contains("Wide.Holey"), "\(byName.output)")
    }

    @Test func expandShowsNestedFieldsAtAbsoluteOffsetsInARelease() throws {
        let built = try CheckFixture.built.get()
        let source = built.directory + "/nest.swift"
        let library = built.directory + "/libnest.so"
        try write(nestSource, to: source)
        let compiled = try CheckFixture.run(
            CheckFixture.swiftc, ["-O", "-emit-library", "-module-name", "Nest", source, "-o", library], in: built.directory)
        try #require(compiled.status == 0, "\(compiled.error)")

        func row(_ offset: Int?, _ size: Int, depth: Int, _ field: String) -> String {
            let at = offset.map(String.init) ?? "?"
            let width = String(size)
            return "  " + String(repeating: " ", count: 6 - at.count) + at + "  " + String(repeating: " ", count: 4 - width.count) + width
                + "  " + String(repeating: "  ", count: depth) + field + "\n"
        }
        let two = try CheckFixture.typeinfo(["layout", library, "--type", "Nest.Outer", "--expand", "2"])
        #expect(two.status == 0, "\(two.error)")
        #expect(
            two.output.contains(
                row(MemoryLayout<NestOuter>.offset(of: \.inner), MemoryLayout<NestInner>.size, depth: 0, "inner: Nest.Inner")
                    + row(MemoryLayout<NestOuter>.offset(of: \.inner.tag), 1, depth: 1, "tag: Swift.UInt8")), "\(two.output)")
        #expect(
            two.output.contains(row(MemoryLayout<NestOuter>.offset(of: \.inner.deep.value), 8, depth: 2, "value: Swift.Int64")),
            "\(two.output)")
        let one = try CheckFixture.typeinfo(["layout", library, "--type", "Nest.Outer", "--expand", "1"])
        #expect(
            one.output.contains(
                row(MemoryLayout<NestOuter>.offset(of: \.inner.deep), MemoryLayout<NestDeep>.size, depth: 1, "deep: Nest.Deep")))
        #expect(!one.output.contains("value: Swift.Int64"), "\(one.output)")
        let json = try CheckFixture.typeinfo(["layout", library, "--type", "Nest.Outer", "--expand", "1", "--format", "json"])
        #expect(
            json.status == 2 && json.error.contains("--expand opens nested types in the text view; leave out --format json"),
            "\(json.error)")
    }

    @Test func enumsShowPayloadsAndTheExtraTag() throws {
        let built = try CheckFixture.built.get()
        let source = built.directory + "/tagged.swift"
        let library = built.directory + "/libtagged.so"
        try write(taggedSource, to: source)
        let compiled = try CheckFixture.run(
            CheckFixture.swiftc, ["-O", "-emit-library", "-module-name", "Tagged", source, "-o", library], in: built.directory)
        try #require(compiled.status == 0, "\(compiled.error)")

        let shape = try CheckFixture.typeinfo(["layout", library, "--type", "Tagged.Shape"])
        #expect(shape.status == 0, "\(shape.error)")
        let shapeTag = MemoryLayout<TaggedShape>.size - MemoryLayout<Int64>.size
        #expect(shape.output.contains("  enum layout: multi-payload, tag bytes \(shapeTag), "), "\(shape.output)")
        #expect(shape.output.contains("  case circle(Swift.Int64)  payload \(MemoryLayout<Int64>.size)\n"), "\(shape.output)")
        let maybe = try CheckFixture.typeinfo(["layout", library, "--type", "Tagged.Maybe"])
        #expect(
            maybe.output.contains("enum layout: single-payload, tag bytes \(MemoryLayout<TaggedMaybe>.size - MemoryLayout<UInt8>.size), "),
            "\(maybe.output)")
        let flagged = try CheckFixture.typeinfo(["layout", library, "--type", "Tagged.Flagged"])
        #expect(
            flagged.output.contains(
                "enum layout: single-payload, tag bytes \(MemoryLayout<TaggedFlagged>.size - MemoryLayout<Bool>.size), "),
            "\(flagged.output)")
        // --all shows the enums too, and the total leaves them out of its count.
        let all = try CheckFixture.typeinfo(["layout", library, "--all"])
        #expect(all.output.contains("enum Tagged.Shape  size \(MemoryLayout<TaggedShape>.size)"), "\(all.output)")
        #expect(all.output.contains(" in 0 of 0 types (3 enums or other types not analysed for holes)"), "\(all.output)")
    }
}

private struct NestDeep { var flag: Bool; var value: Int64 }
private struct NestInner { var tag: UInt8; var deep: NestDeep; var count: Int32 }
private struct NestOuter { var first: UInt16; var inner: NestInner; var last: UInt8 }
/// The same declarations as NestDeep, NestInner and NestOuter, public in module Nest.
private let nestSource = """
    public struct Deep { public var flag = false; public var value: Int64 = 0 }
    public struct Inner { public var tag: UInt8 = 0; public var deep = Deep(); public var count: Int32 = 0 }
    public struct Outer { public var first: UInt16 = 0; public var inner = Inner(); public var last: UInt8 = 0 }
    """

private enum TaggedShape {
    case circle(Int64)
    case square(Bool)
    case none
}
private enum TaggedMaybe {
    case some(UInt8)
    case nothing
}
private enum TaggedFlagged {
    case on(Bool)
    case off
}
/// The same declarations as TaggedShape, TaggedMaybe and TaggedFlagged, public in module Tagged.
private let taggedSource = """
    public enum Shape { case circle(Int64), square(Bool), none }
    public enum Maybe { case some(UInt8), nothing }
    public enum Flagged { case on(Bool), off }
    """
