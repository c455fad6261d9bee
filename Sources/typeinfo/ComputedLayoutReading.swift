import Foundation
import TypeLayout
import TypeLowering

/// Adds the layouts the toolchain's type lowering computes (TypeLowering) to a document read from
/// a file's static metadata: one place, used by every command that reads a binary.
enum ComputedLayoutReading {
    /// Set `TYPEINFO_COMPUTED_LAYOUTS=0` to read static metadata only (today's behaviour before computed layouts).
    static var isEnabled: Bool {
        ProcessInfo.processInfo.environment["TYPEINFO_COMPUTED_LAYOUTS"] != "0"
    }

    /// `document` (read from `path`) with computed facts merged in; notes say what stayed unknown.
    static func adding(to document: LayoutDocument, path: String) -> LayoutDocument {
        guard isEnabled, document.image.fileType != "relocatable" else { return document }
        let configuration = LoweringConfiguration.resolved()
        let dependencies = LibraryDependencies.resolve(forFileAt: path, toolchainDirectory: LoweringConfiguration.toolchainLibraryDirectory)
        let computed = ComputedLayouts.compute(forFileAt: path, types: document.types, dependencies: dependencies.paths, configuration: configuration)
        var merged = computed.merged(into: document)
        merged.image.notes += dependencies.notes
        return merged
    }
}
