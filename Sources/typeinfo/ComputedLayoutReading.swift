import BinaryInfo
import Foundation
import TypeLayout
import TypeLowering

/// Reads a binary's static metadata with the layouts the toolchain's type lowering computes
/// (TypeLowering) merged in: one place, used by every command that reads a binary.
enum ComputedLayoutReading {
    /// Set `TYPEINFO_COMPUTED_LAYOUTS=0` to read static metadata only.
    static var isEnabled: Bool {
        ProcessInfo.processInfo.environment["TYPEINFO_COMPUTED_LAYOUTS"] != "0"
    }

    /// The file's types from its static metadata, with computed facts merged in; notes say what
    /// stayed unknown. The lowering worker lays the images out while the metadata is read.
    static func read(_ path: String) throws -> LayoutDocument {
        guard isEnabled else { return try BinaryImage.layouts(atPath: path) }
        let dependencies = LibraryDependencies.resolve(forFileAt: path, toolchainDirectory: LoweringConfiguration.toolchainLibraryDirectory)
        let pending = PendingLowering(forFileAt: path, dependencies: dependencies.paths)
        let document = try BinaryImage.layouts(atPath: path)
        guard document.image.fileType != "relocatable" else { return document }
        var merged = pending.compute(types: document.types).merged(into: document)
        merged.image.notes += dependencies.notes
        return merged
    }

    /// The layout of a type the file does not define but can lay out: a bound generic
    /// instantiation named by its mangling (`$s…`) or by the name the file's own fields print
    /// (`Module.Wrapper<Swift.Int>`). Nil, with a reason, when neither works.
    static func instantiation(named name: String, path: String, document: LayoutDocument) -> (TypeLayout?, String) {
        guard isEnabled else { return (nil, "computed layouts are off (TYPEINFO_COMPUTED_LAYOUTS=0)") }
        let mangling = name.hasPrefix("$s") ? name : ComputedLayouts.mangling(ofTypeNamed: name, in: document.types)
        guard let mangling else {
            return (nil, "no field in the file has that type; give its mangled name ($s…) to lay it out")
        }
        let dependencies = LibraryDependencies.resolve(forFileAt: path, toolchainDirectory: LoweringConfiguration.toolchainLibraryDirectory)
        let (layout, notes) = ComputedLayouts.instantiation(mangledName: mangling, forFileAt: path, dependencies: dependencies.paths)
        return (layout, notes.last ?? "")
    }
}
