import BinaryFixtures
import Foundation
import LayoutReading
import Testing
import TypeLayout

/// DWARF's descriptions of Swift types that state nothing about a fact are not disagreements
/// (issue 23, section 4): a class in a generic context is a member-less `DW_TAG_structure_type`
/// under plain `-g`, and the note must not say that DWARF calls it a struct.
@Suite("DWARF facts that are not stated are not compared")
struct DWARFUnstatedFactsTests {
    static let source = """
        public struct Box<T> {
            final class Storage { var value: T; init(_ value: T) { self.value = value } }
            var storage: Storage
        }
        let box = Box(storage: .init(1))
        print(box.storage.value)
        """

    static func program() throws -> String {
        let directory = FixtureToolchain.buildDirectory + "/dwarf-unstated"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/generic.swift"
        try source.write(toFile: path, atomically: true, encoding: .utf8)
        let program = directory + "/generic"
        try FixtureToolchain.run(FixtureToolchain.swiftc, ["-g", path, "-o", program], in: directory)
        return program
    }

    @Test("a class in a generic context, described as a member-less structure_type: counted, no 'DWARF disagrees'")
    func genericContextClass() throws {
        let program = try Self.program()
        // The premise, from llvm-dwarfdump where the machine has it: the entry is a structure_type
        // named by a bound generic mangling, with no member.
        for tool in ["/usr/bin/llvm-dwarfdump", "/opt/swift/usr/bin/llvm-dwarfdump"]
        where FileManager.default.isExecutableFile(atPath: tool) {
            let entry = try FixtureToolchain.run(tool, ["--debug-info", "--name=Storage", program], in: FixtureToolchain.buildDirectory)
            #expect(entry.contains("DW_TAG_structure_type"), "\(entry)")
            #expect(entry.contains("$s7generic3BoxV7StorageCyx_GD"), "\(entry)")
            #expect(!entry.contains("DW_TAG_member"), "\(entry)")
            break
        }
        let document = try BinaryLayoutReader.read(path: program).document
        // The metadata states the kind: a class.
        let storage = try #require(document.types.first { $0.name == "generic.Box<A>.Storage" })
        #expect(storage.kind == .class)
        let notes = document.image.notes
        #expect(!notes.contains { if case .dwarfDisagreement = $0 { true } else { false } }, "\(notes)")
        // Every type of the program is generic or in a generic context: no count calls any of
        // them non-generic.
        #expect(!notes.contains { $0.subject == .fileCount }, "\(notes)")
        let unstated = notes.compactMap { note -> Int? in
            guard case .dwarfUnstatedFacts(_, _, let withoutKind) = note else { return nil }
            return withoutKind
        }
        #expect(unstated == [1], "\(notes)")
        #expect(
            notes.map(\.text).contains {
                $0.hasPrefix("DWARF does not state every fact of the Swift types it describes, and what it leaves out is not compared: ")
                    && $0.contains(
                        "1 without a kind of their own (DW_TAG_structure_type for a type in a generic context or an imported C typedef)")
            }, "\(notes)")
    }
}
