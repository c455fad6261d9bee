import BinaryFixtures
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
        if let line = processMaps().split(separator: "\n").first(where: { $0.hasSuffix("/libswiftCore.so") }),
            let slash = line.firstIndex(of: "/")
        {
            return URL(fileURLWithPath: String(line[slash...])).deletingLastPathComponent().path
        }
        return "/opt/swift/usr/lib/swift/linux"
    }()

    /// This process's memory map (procfs reports size 0, so it is read to the end rather than by size).
    static func processMaps() -> String {
        guard let handle = FileHandle(forReadingAtPath: "/proc/self/maps") else { return "" }
        defer { try? handle.close() }
        return String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
    }

    @Test("libswiftCore.so: String's stored field, Optional's cases, Int's size")
    func swiftCore() throws {
        let document = try BinaryImage.layouts(
            atPath: Self.libraryDirectory + "/libswiftCore.so", runtimeLibrary: ToolchainRuntime.libswiftCore)
        #expect(document.types.count > 300)
        #expect(document.image.fileType == .sharedLibrary)

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
        let document = try BinaryImage.layouts(
            atPath: Self.libraryDirectory + "/libFoundationEssentials.so", runtimeLibrary: ToolchainRuntime.libswiftCore)
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
        #expect(!document.image.notes.contains(where: isUnreadableNote))
    }

    /// Public types of the toolchain's libraries that this test process can name, against the
    /// running runtime's own view of the same types.
    @Test(
        "toolchain library types agree with the runtime",
        arguments: [
            (String.self as Any.Type, "struct"), (Int.self, "struct"), (Double.self, "struct"), (Character.self, "struct"),
            (Substring.self, "struct"), (String.Index.self, "struct"), (Unicode.Scalar.self, "struct"), (Duration.self, "struct"),
            (ObjectIdentifier.self, "struct"), (AnyHashable.self, "struct"), (Hasher.self, "struct"), (StaticString.self, "struct"),
            (Mirror.self, "struct"), (Mirror.DisplayStyle.self, "enum"), (FloatingPointSign.self, "enum"),
            (Date.self, "struct"), (URL.self, "struct"), (URLComponents.self, "struct"), (UUID.self, "struct"),
            (DateInterval.self, "struct"), (IndexPath.self, "struct"), (Data.self, "struct"), (Decimal.self, "struct"),
            (TimeZone.self, "struct"), (Locale.self, "struct"), (Calendar.self, "struct"), (DateComponents.self, "struct"),
            (URLQueryItem.self, "struct"),
            (JSONEncoder.OutputFormatting.self, "struct"), (Calendar.Component.self, "enum"), (JSONDecoder.self, "class"),
        ] as [(Any.Type, String)])
    func libraryTypes(type: Any.Type, kind: String) throws {
        let name = String(reflecting: type)
        let document = try name.hasPrefix("Swift.") ? Self.swiftCore() : Self.foundationEssentials()
        let layout = try #require(document.types.first { $0.name == name }, "\(name) not in the dump")
        #expect(layout.kind.rawValue == kind, "\(name)")
        func sizes<T>(_: T.Type) -> (Int, Int, Int) { (MemoryLayout<T>.size, MemoryLayout<T>.alignment, MemoryLayout<T>.stride) }
        let (size, alignment, stride) = _openExistential(type, do: sizes)
        if let actual = layout.size {
            #expect(
                actual == size && layout.alignment == alignment && layout.stride == stride,
                "\(name): \(actual)/\(layout.alignment ?? -1)/\(layout.stride ?? -1) vs \(size)/\(alignment)/\(stride)")
        }
        if kind == "enum" { return }
        var runtimeFields: [(String, Int)] = []
        // `_EachFieldOptions.classType` is a mutable static (not concurrency-safe to read); its value is bit 0.
        _ = _forEachField(of: type, options: kind == "class" ? _EachFieldOptions(rawValue: 1 << 0) : []) { fieldName, offset, _, _ in
            runtimeFields.append((String(cString: fieldName), offset))
            return true
        }
        #expect(layout.fields.map(\.name) == runtimeFields.map(\.0), "\(name): field names")
        if layout.fields.contains(where: { $0.offset != nil }) {
            #expect(layout.fields.map(\.offset) == runtimeFields.map { Optional($0.1) }, "\(name): field offsets")
        }
    }

    /// The dump of libswiftCore, read once per test run.
    static func swiftCore() throws -> LayoutDocument {
        try LibraryDumps.swiftCore.get()
    }

    /// The dump of libFoundationEssentials, read once per test run.
    static func foundationEssentials() throws -> LayoutDocument {
        try LibraryDumps.foundationEssentials.get()
    }
}

/// One read of each toolchain library, shared by the tests that look at it.
enum LibraryDumps {
    static let foundationEssentials = read("libFoundationEssentials.so")
    static let swiftCore = read("libswiftCore.so")

    static func read(_ name: String) -> Result<LayoutDocument, BinaryInfoError> {
        do {
            return .success(
                try BinaryImage.layouts(
                    atPath: ToolchainLibraryTests.libraryDirectory + "/" + name, runtimeLibrary: ToolchainRuntime.libswiftCore))
        } catch {
            return .failure(error)
        }
    }
}
