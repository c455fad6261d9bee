import Foundation
import Synchronization
import TypeLayout

/// A release (`-O`) program importing C structs with anonymous union and struct members shaped
/// like libyaml's (`Fixtures/ImportedC`), and what it prints about its own types.
public enum ImportedCFixture {
    /// One imported C type as the program sees it: the compiler's layout (`MemoryLayout`) and
    /// the address of the metadata the runtime hands out for it.
    public struct TypeFacts: Decodable, Sendable {
        public var name: String
        public var size: Int
        public var alignment: Int
        public var stride: Int
        public var metadata: UInt
    }

    /// One stored field: `MemoryLayout.offset(of:)` and the size of the field's type.
    public struct FieldFacts: Decodable, Sendable {
        public var type: String
        public var name: String
        public var offset: Int
        public var size: Int
    }

    public struct Oracle: Decodable, Sendable {
        public var types: [TypeFacts]
        public var fields: [FieldFacts]

        /// The types whose metadata the runtime shares with a type of another layout: by the
        /// program's own account, their layout at run time is whichever was registered first.
        public var runtimeShared: Set<String> {
            let groups = Dictionary(grouping: types, by: \.metadata)
            return Set(
                groups.values.filter { group in
                    Set(group.map { [$0.size, $0.alignment, $0.stride] }).count > 1
                }.flatMap { $0.map(\.name) })
        }
    }

    /// Where `types` (a reading of the program) disagrees with the program's own account: an
    /// empty list when every stated fact is the compiler's and every runtime-shared one is withheld.
    public static func disagreements(of types: [TypeLayout], with oracle: Oracle) -> [String] {
        var found: [String] = []
        let shared = oracle.runtimeShared
        let sharedManglings = Set(types.filter { shared.contains($0.name) }.compactMap(\.mangledName))
        for facts in oracle.types {
            guard let type = types.first(where: { $0.name == facts.name }) else {
                found.append("\(facts.name): not listed")
                continue
            }
            if shared.contains(facts.name) {
                if type.size != nil || type.alignment != nil || type.stride != nil {
                    found.append("\(facts.name): layout stated (size \(type.size ?? -1)) although the runtime shares its metadata")
                }
                if type.fields.contains(where: { $0.offset != nil || $0.size != nil }) {
                    found.append("\(facts.name): field offsets or sizes stated although the runtime shares its metadata")
                }
            } else if type.size != facts.size || type.alignment != facts.alignment || type.stride != facts.stride {
                found.append(
                    "\(facts.name): size/alignment/stride \(String(describing: type.size))/\(String(describing: type.alignment))/\(String(describing: type.stride)), MemoryLayout \(facts.size)/\(facts.alignment)/\(facts.stride)"
                )
            }
        }
        for facts in oracle.fields {
            guard let field = types.first(where: { $0.name == facts.type })?.fields.first(where: { $0.name == facts.name }) else {
                found.append("\(facts.type).\(facts.name): not listed")
                continue
            }
            if shared.contains(facts.type) { continue }  // checked above
            if field.offset != facts.offset {
                found.append("\(facts.type).\(facts.name): offset \(String(describing: field.offset)), MemoryLayout \(facts.offset)")
            }
            if let mangling = field.mangledType, sharedManglings.contains(mangling) {
                if let size = field.size { found.append("\(facts.type).\(facts.name): size \(size) stated for a runtime-shared type") }
            } else if let size = field.size, size != facts.size {
                found.append("\(facts.type).\(facts.name): size \(size), MemoryLayout \(facts.size)")
            }
        }
        return found
    }

    private static let built = Mutex<Result<(String, Oracle), FixtureError>?>(nil)

    /// The built program's path and what it printed (built on first use).
    public static func program() throws -> (path: String, oracle: Oracle) {
        try built.withLock { cached in
            if let cached { return try cached.get() }
            let result: Result<(String, Oracle), FixtureError>
            do {
                let sources = FixtureToolchain.fixturesDirectory + "/ImportedC"
                let output = FixtureToolchain.buildDirectory + "/imported-c-tokens"
                try FixtureToolchain.run(
                    FixtureToolchain.swiftc, ["-O", "-I", sources, sources + "/main.swift", "-o", output],
                    in: FixtureToolchain.buildDirectory)
                let printed = try FixtureToolchain.run(output, [], in: FixtureToolchain.buildDirectory)
                result = .success((output, try JSONDecoder().decode(Oracle.self, from: Data(printed.utf8))))
            } catch let error as FixtureError {
                result = .failure(error)
            } catch {
                result = .failure(FixtureError(message: "imported C fixture: \(error)"))
            }
            cached = result
            return try result.get()
        }
    }
}
