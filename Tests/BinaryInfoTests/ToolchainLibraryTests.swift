import Foundation
@_spi(Reflection) import Swift
import Testing
import TypeLayout
@testable import BinaryInfo

/// Binaries nobody here wrote: the toolchain's own Swift libraries.
@Suite("Toolchain libraries dump without error and known types come out right")
struct ToolchainLibraryTests {
    static let libraryDirectory: String = {
        // The directory of the libswiftCore.so this test process runs on.
        if let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8),
           let line = maps.split(separator: "\n").first(where: { $0.hasSuffix("/libswiftCore.so") }),
           let slash = line.firstIndex(of: "/") {
            return URL(fileURLWithPath: String(line[slash...])).deletingLastPathComponent().path
        }
        return "/opt/swift/usr/lib/swift/linux"
    }()

    @Test("libswiftCore.so: String's stored field, Optional's cases, Int's size")
    func swiftCore() throws {
        let document = try BinaryImage.layouts(atPath: Self.libraryDirectory + "/libswiftCore.so")
        #expect(document.types.count > 300)
        #expect(document.image.fileType == "shared-library")

        let string = try #require(document.types.first { $0.name == "Swift.String" })
        #expect(string.kind == .struct)
        #expect(string.size == MemoryLayout<String>.size)
        #expect(string.alignment == MemoryLayout<String>.alignment)
        #expect(string.stride == MemoryLayout<String>.stride)
        // The oracle for the stored field: the running runtime's own reflection of String.
        var runtimeFields: [(String, Int)] = []
        _ = _forEachField(of: String.self, options: []) { name, offset, _, _ in
            runtimeFields.append((String(cString: name), offset))
            return true
        }
        #expect(string.fields.map(\.name) == runtimeFields.map(\.0))
        #expect(string.fields.map(\.offset) == runtimeFields.map { Optional($0.1) })
        #expect(string.fields.first?.type == "Swift._StringGuts")

        let optional = try #require(document.types.first { $0.name.hasPrefix("Swift.Optional<") })
        #expect(optional.kind == .enum)
        #expect(optional.cases.map(\.name) == ["some", "none"])
        #expect(optional.cases.first?.payloadType == optional.genericParameters.first)
        #expect(optional.size == nil)

        let int = try #require(document.types.first { $0.name == "Swift.Int" })
        #expect(int.size == MemoryLayout<Int>.size && int.stride == MemoryLayout<Int>.stride)
        #expect(document.types.contains { $0.kind == .protocol && $0.name == "Swift.Sequence" })
        #expect(int.conformances.contains("Swift.Hashable"))
    }

    @Test("libFoundationEssentials.so: Date's stored field and layout")
    func foundationEssentials() throws {
        let document = try BinaryImage.layouts(atPath: Self.libraryDirectory + "/libFoundationEssentials.so")
        #expect(document.types.count > 300)
        let date = try #require(document.types.first { $0.name == "FoundationEssentials.Date" })
        #expect(date.kind == .struct)
        #expect(date.module == "FoundationEssentials")
        #expect(date.size == MemoryLayout<Date>.size)
        #expect(date.stride == MemoryLayout<Date>.stride)
        var runtimeFields: [(String, Int, String)] = []
        _ = _forEachField(of: Date.self, options: []) { name, offset, type, _ in
            runtimeFields.append((String(cString: name), offset, String(reflecting: type)))
            return true
        }
        #expect(date.fields.map(\.name) == runtimeFields.map(\.0))
        #expect(date.fields.map(\.offset) == runtimeFields.map { Optional($0.1) })
        #expect(date.fields.map(\.type) == runtimeFields.map(\.2))
        // Every record read: no note about unreadable records.
        #expect(!document.image.notes.contains { $0.contains("could not be read") })
    }
}
