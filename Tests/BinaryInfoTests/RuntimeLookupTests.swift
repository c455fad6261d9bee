@_spi(Reflection) import Swift
import Foundation
import Testing
import TypeLayout
@testable import BinaryInfo

/// Every non-generic type the dump of a loaded toolchain library lists, looked up in this very
/// process by its mangled name (`_typeByName`, the runtime's own lookup): the runtime's
/// `MemoryLayout` and `_forEachField` are the oracle for every size and offset the dump gives.
@Suite("Every dumped library type against the runtime that has it loaded")
struct RuntimeLookupTests {
    /// Libraries this test process has loaded (the standard library, Foundation and what it
    /// links, Swift Testing and its concurrency runtime).
    static let loadedLibraries = [
        "libswiftCore.so", "libFoundationEssentials.so", "libFoundation.so", "libFoundationInternationalization.so",
        "libswift_Concurrency.so", "libswiftDispatch.so", "libTesting.so",
    ]

    @Test("every type of the loaded toolchain libraries", arguments: loadedLibraries)
    func everyType(library: String) throws {
        try #require(ToolchainLibraryTests.processMaps().contains("/" + library), "\(library) is not loaded in this process")
        let document: LayoutDocument
        switch library {
        case "libswiftCore.so": document = try LibraryDumps.swiftCore.get()
        case "libFoundationEssentials.so": document = try LibraryDumps.foundationEssentials.get()
        default: document = try LibraryDumps.read(library).get()
        }
        var checked = 0
        var candidates = 0
        // Types in generic contexts (`Dictionary<A, B>.Keys`) need arguments to exist at run time,
        // and the runtime does not look private types up by their file discriminator.
        for layout in document.types where !layout.name.contains("<") && !layout.name.contains(" in _") && layout.kind != .protocol {
            guard let mangled = layout.mangledName else { continue }
            candidates += 1
            guard let type = _typeByName(mangled) else {
                if ProcessInfo.processInfo.environment["BINARYINFO_DEBUG_LOOKUP"] != nil { print("unresolved: \(layout.name) \(mangled)") }
                continue
            }
            checked += 1
            Self.compare(layout, with: type)
        }
        if ProcessInfo.processInfo.environment["BINARYINFO_DEBUG_LOOKUP"] != nil {
            print("\(library): \(checked) of \(candidates) types checked")
        }
        // Nearly every type must be found by the runtime under the name the dump gives it.
        #expect(checked * 10 >= candidates * 9, "\(library): only \(checked) of \(candidates) types resolved by mangled name")
    }

    static func compare(_ layout: TypeLayout, with type: Any.Type) {
        func sizes<T>(_: T.Type) -> (Int, Int, Int) { (MemoryLayout<T>.size, MemoryLayout<T>.alignment, MemoryLayout<T>.stride) }
        let (size, alignment, stride) = _openExistential(type, do: sizes)
        if let actual = layout.size {
            #expect(actual == size, "\(layout.name): size")
            #expect(layout.alignment == alignment, "\(layout.name): alignment")
            #expect(layout.stride == stride, "\(layout.name): stride")
        }
        guard layout.kind == .struct || layout.kind == .class, layout.fields.contains(where: { $0.offset != nil }) else { return }
        // The runtime's reflection cannot name some builtin field types (SIMD vectors of Float16) and
        // warns on stderr for each; the sizes above already cover those types.
        if layout.fields.contains(where: { $0.mangledType?.hasPrefix("B") == true }) { return }
        var runtime: [(String, Int)] = []
        // `_EachFieldOptions.classType` is a mutable static (not concurrency-safe to read); its value is bit 0.
        let options = layout.kind == .class ? _EachFieldOptions(rawValue: 1 << 0) : []
        _ = _forEachField(of: type, options: options) { name, offset, _, _ in
            runtime.append((String(cString: name), offset))
            return true
        }
        // Classes whose superclass is in another image list only their own fields: compare the tail.
        let tail = Array(runtime.suffix(layout.fields.count))
        #expect(layout.fields.map(\.name) == tail.map(\.0), "\(layout.name): field names")
        #expect(layout.fields.map(\.offset) == tail.map { Optional($0.1) }, "\(layout.name): field offsets")
    }
}
