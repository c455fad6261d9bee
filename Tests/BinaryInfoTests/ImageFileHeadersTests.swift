import BinaryFixtures
import Foundation
import Testing

@testable import BinaryInfo

/// An ``ImageFile``'s section headers and dependency information are parsed once and shared by
/// every reader of the file: whichever reader parsed them first, they are the file's.
@Suite("An image file's shared headers")
struct ImageFileHeadersTests {
    /// `readelf -SW`: each active section's name, offset and size.
    static func readelfSections(_ path: String) throws -> [String] {
        let printed = try FixtureToolchain.run("/usr/bin/env", ["readelf", "-SW", path], in: FixtureToolchain.buildDirectory)
        return printed.split(separator: "\n").compactMap { line -> String? in
            guard let close = line.firstIndex(of: "]"), line.contains("[") else { return nil }
            let fields = line[line.index(after: close)...].split(separator: " ")
            // The inactive header [0] has no name: its first field is its type.
            guard fields.count >= 5, fields[0] != "NULL", fields[1] != "NULL", fields[0] != "Name" else { return nil }
            return "\(fields[0]) \(UInt64(fields[3], radix: 16) ?? 0) \(UInt64(fields[4], radix: 16) ?? 0)"
        }
    }

    static func described(_ sections: ImageSections) -> [String] {
        sections.sections.map { "\($0.name) \($0.offset) \($0.size)" }
    }

    @Test("headers kept from the metadata reader's parse equal readelf's and a fresh parse's", arguments: [FixtureBuild.plain, .debug])
    func adoptedHeaders(_ build: FixtureBuild) throws {
        let path = try FixtureToolchain.product(build)
        let shared = try ImageFile(path: path)
        _ = try BinaryImage.read(shared, runtimeLibrary: ToolchainRuntime.libswiftCore)
        let fresh = try ImageFile(path: path)
        #expect(try Self.described(shared.sectionHeaders()) == Self.readelfSections(path))
        #expect(try Self.described(shared.sectionHeaders()) == Self.described(fresh.sectionHeaders()))
        #expect(try shared.sectionHeaders().fileType == fresh.sectionHeaders().fileType)
        let adopted = try shared.dependencyInfo()
        let parsed = try fresh.dependencyInfo()
        #expect(adopted.needed == parsed.needed && adopted.searchPaths == parsed.searchPaths && adopted.isSwift == parsed.isSwift)
        #expect(!adopted.needed.isEmpty && adopted.isSwift)
    }

    @Test("a file that is not ELF gives the same error to every reader that asks, each time")
    func sharedError() throws {
        let path = FixtureToolchain.buildDirectory + "/headers-not-elf"
        try Data("not an ELF file at all, but long enough to have a header".utf8).write(to: URL(fileURLWithPath: path))
        let file = try ImageFile(path: path)
        #expect(throws: BinaryInfoError.notELF(path: path)) { try file.sectionHeaders() }
        #expect(throws: BinaryInfoError.notELF(path: path)) { try file.dependencyInfo() }
    }
}
