import BinaryFixtures
import Testing
import TypeLayout

@testable import BinaryInfo

/// The Swift runtime library is an input of a reading, never looked up in the running process:
/// what a reading states depends on the library it is given, and its notes say which was missing.
@Suite("The runtime library is an explicit input")
struct RuntimeLibraryInputTests {
    static let unknownSizes = "sizes of types that reuse its value witness tables are unknown"

    @Test("without a runtime library, sizes that come from its witness tables are unknown and a note says so")
    func withoutRuntime() throws {
        let fixture = try FixtureToolchain.product(.plain)
        let runtime = try #require(ToolchainRuntime.libswiftCore)
        let with = try BinaryImage.layouts(atPath: fixture, runtimeLibrary: runtime)
        let without = try BinaryImage.layouts(atPath: fixture, runtimeLibrary: nil)
        let missing = "/nonexistent/libswiftCore.so"
        let unreadable = try BinaryImage.layouts(atPath: fixture, runtimeLibrary: missing)

        #expect(!with.image.notes.contains { if case .runtimeLibraryUnavailable = $0 { true } else { false } })
        #expect(without.image.notes.contains(.runtimeLibraryUnavailable(problem: nil)))
        #expect(without.image.notes.map(\.text).contains("no Swift runtime library (libswiftCore.so) was given: \(Self.unknownSizes)"))
        #expect(unreadable.image.notes.contains(.runtimeLibraryUnavailable(problem: "\(missing): no such file")))
        #expect(
            unreadable.image.notes.map(\.text).contains(
                "the Swift runtime library could not be read (\(missing): no such file): \(Self.unknownSizes)"))
        // The same types; every size the runtime-less reading states is the one the full reading
        // states, and the runtime's tables give some sizes it cannot.
        #expect(with.types.map(\.name) == without.types.map(\.name))
        var gained = 0
        for (full, partial) in zip(with.types, without.types) {
            if let size = partial.size { #expect(full.size == size, "\(full.name)") } else if full.size != nil { gained += 1 }
        }
        #expect(gained > 0)
    }
}

/// Whether a note says some of the file could not be read.
func isUnreadableNote(_ note: LayoutNote) -> Bool {
    switch note {
    case .recordsUnreadable, .unlistedTypesUnreadable, .builtinDescriptorsUnreadable, .metadataUnreadable: return true
    default: return false
    }
}
