import Foundation
import Testing
import TypeLayout
@testable import BinaryInfo

/// The kind the dump states for a class is the kind of the metadata the runtime builds for it:
/// an imported CF type (`__C.CFArrayRef`), whose descriptor asks for foreign metadata
/// initialization, has foreign class metadata (kind 0x203, `foreignClass`), not class metadata
/// (issue 23). The oracle is the metadata of each type in this process, which has Foundation loaded.
@Suite("Class kinds against the runtime's metadata kinds")
struct ForeignClassKindTests {
    /// `MetadataKind::ForeignClass` (MetadataKind.def).
    static let foreignClassKind: UInt = 0x203
    /// Kinds above this are an Objective-C isa pointer: class metadata (MetadataValues.h, `LastEnumerated`).
    static let lastEnumeratedKind: UInt = 0x7FF

    @Test("every class and foreign class of libFoundation")
    func foundationClasses() throws {
        try #require(ToolchainLibraryTests.processMaps().contains("/libFoundation.so"), "libFoundation.so is not loaded in this process")
        let document = try LibraryDumps.read("libFoundation.so").get()
        var checked: [TypeKind: Int] = [:]
        for layout in document.types where layout.kind == .class || layout.kind == .foreignClass {
            guard !layout.name.contains("<"), !layout.name.contains(" in _"), let mangled = layout.mangledName,
                let type = _typeByName(mangled)
            else { continue }
            let kind = unsafeBitCast(type, to: UnsafePointer<UInt>.self).pointee
            let runtime: TypeKind =
                kind == Self.foreignClassKind ? .foreignClass : (kind == 0 || kind > Self.lastEnumeratedKind ? .class : .opaque)
            #expect(layout.kind == runtime, "\(layout.name): stated \(layout.kind), metadata kind 0x\(String(kind, radix: 16))")
            checked[layout.kind, default: 0] += 1
        }
        // libFoundation imports 24 CF types and defines hundreds of classes.
        #expect(checked[.foreignClass, default: 0] >= 20, "\(checked)")
        #expect(checked[.class, default: 0] >= 100, "\(checked)")
    }
}
