import Foundation
import Testing

/// The layers' rule, checked on the sources: each module imports only modules further up the
/// list, and the imports, Package.swift's dependencies and docs/architecture.md's table say the
/// same thing. Each C library is wrapped by one Swift module.
@Suite struct ModuleLayeringTests {
    static let root = SourceFormattingTests.root

    /// The Swift modules of Sources, in layer order: an import may only point up this list.
    static let layers = [
        "TypeLayout", "TypeInfo", "BinaryInfo", "DWARFInfo", "TypeLowering", "typeinfo-lowering", "LayoutReading", "LayoutTesting",
        "ModelMapper", "typeinfo",
    ]
    /// The C modules, each with the one Swift module that wraps it.
    static let cModules = [
        "CLibElf": "BinaryInfo", "CPtrace": "BinaryInfo", "CLibDwarf": "DWARFInfo", "CSwiftRemoteMirror": "TypeLowering",
        "CThreadDB": "TypeLowering",
    ]

    /// The project's modules each Swift file of `module` imports.
    static func imports(of module: String) throws -> [String: Set<String>] {
        let directory = root.appendingPathComponent("Sources/" + module)
        let ours = Set(layers.map { $0.replacingOccurrences(of: "-", with: "_") } + cModules.keys)
        var found: [String: Set<String>] = [:]
        let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        for file in files where file.pathExtension == "swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            for line in text.split(separator: "\n") {
                var words = line.split(separator: " ").map(String.init)
                while let first = words.first, first.hasPrefix("@") || ["public", "internal", "package"].contains(first) {
                    words.removeFirst()
                }
                guard words.count >= 2, words[0] == "import" else { continue }
                let name = words[1].split(separator: ".").first.map(String.init) ?? words[1]
                if ours.contains(name) { found[file.lastPathComponent, default: []].insert(name) }
            }
        }
        return found
    }

    /// Each target's dependencies among the project's modules, as Package.swift declares them.
    static func packageDependencies() throws -> [String: Set<String>] {
        let text = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        var result: [String: Set<String>] = [:]
        let known = Set(layers + cModules.keys)
        for declaration in text.components(separatedBy: ".target(").dropFirst()
            + text.components(separatedBy: ".executableTarget(").dropFirst()
        {
            guard let nameStart = declaration.range(of: "name: \""),
                let nameEnd = declaration[nameStart.upperBound...].firstIndex(of: "\"")
            else { continue }
            let name = String(declaration[nameStart.upperBound..<nameEnd])
            guard layers.contains(name) else { continue }
            var dependencies: Set<String> = []
            if let list = declaration.range(of: "dependencies: [") {
                var depth = 1
                var index = list.upperBound
                while index < declaration.endIndex, depth > 0 {
                    if declaration[index] == "[" { depth += 1 }
                    if declaration[index] == "]" { depth -= 1 }
                    index = declaration.index(after: index)
                }
                let body = declaration[list.upperBound..<index]
                for quoted in body.split(separator: "\"", omittingEmptySubsequences: false).enumerated() where quoted.offset % 2 == 1 {
                    if known.contains(String(quoted.element)) { dependencies.insert(String(quoted.element)) }
                }
            }
            result[name] = dependencies
        }
        return result
    }

    /// docs/architecture.md's table: each module's imports among the project's modules.
    static func documentedImports() throws -> [String: Set<String>] {
        let text = try String(contentsOf: root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        var result: [String: Set<String>] = [:]
        let known = Set(layers + cModules.keys)
        for line in text.split(separator: "\n") where line.hasPrefix("| ") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count > 3 else { continue }
            let module = cells[1].replacingOccurrences(of: " (CLI)", with: "")
            guard layers.contains(module) else { continue }
            let named = cells[2].split(whereSeparator: { ", ()`".contains($0) }).map(String.init)
            result[module] = Set(named.filter(known.contains))
        }
        return result
    }

    @Test("every import points up the layer list, and Package.swift declares it")
    func importsPointUp() throws {
        let declared = try Self.packageDependencies()
        for (rank, module) in Self.layers.enumerated() {
            let allowed = Set(Self.layers[..<rank]).union(Self.cModules.filter { $0.value == module }.keys)
            for (file, imported) in try Self.imports(of: module) {
                for target in imported {
                    #expect(allowed.contains(target), "Sources/\(module)/\(file) imports \(target), which is not above \(module)")
                    #expect(
                        declared[module]?.contains(target) == true,
                        "Sources/\(module)/\(file) imports \(target), which Package.swift does not list as a dependency of \(module)")
                }
            }
        }
    }

    @Test("docs/architecture.md's table names exactly what each module imports")
    func documentationAgrees() throws {
        let documented = try Self.documentedImports()
        for module in Self.layers where module != "typeinfo-lowering" {
            let imported = try Self.imports(of: module).values.reduce(into: Set<String>()) { $0.formUnion($1) }
            #expect(
                documented[module] == imported,
                "docs/architecture.md says \(module) imports \(documented[module].map { $0.sorted() } ?? []), its sources import \(imported.sorted())"
            )
        }
    }

    @Test("each C library is imported by the one module that wraps it")
    func cLibrariesHaveOneWrapper() throws {
        for module in Self.layers {
            for (file, imported) in try Self.imports(of: module) {
                for name in imported where Self.cModules[name] != nil {
                    #expect(Self.cModules[name] == module, "Sources/\(module)/\(file) imports \(name), which \(Self.cModules[name]!) wraps")
                }
            }
        }
    }
}
