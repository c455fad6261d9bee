import Foundation
import Testing

@testable import ModelMapper

struct Victim: Mappable {
    var id = 0
    var name = "default"
    var ratio = 1.0
    var flags: [Bool] = []
    var child: TreeNode?
    var table: [String: Int] = [:]
}

@Suite struct HostileInputTests {
    @Test func nestingTenThousandDeepGivesAnError() {
        let deep = String(repeating: #"{"children":["#, count: 10_000) + String(repeating: "]}", count: 10_000)
        #expect {
            _ = try ModelMapper.shared.decode(TreeNode.self, from: deep)
        } throws: { error in
            guard let error = error as? MappingError, case .malformedJSON(let read) = error.kind else { return false }
            return read.reason == .nestingTooDeep(limit: 512)
        }
        let arrays = "{\"flags\": " + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000) + "}"
        #expect(throws: MappingError.self) { _ = try ModelMapper.shared.decode(Victim.self, from: arrays) }
    }

    @Test func deepButAllowedNestingDecodes() throws {
        // 120 nested models: each is an object in an array, 240 levels of the reader's 512.
        let depth = 120
        let json = String(repeating: #"{"name":"n","children":["#, count: depth) + String(repeating: "]}", count: depth)
        var node = try ModelMapper.shared.decode(TreeNode.self, from: json)
        var seen = 1
        while let next = node.children.first {
            node = next
            seen += 1
        }
        #expect(seen == depth)
    }

    @Test func hugeNumbersAreSkippedOrErrors() throws {
        let json = #"{"id": 1\#(String(repeating: "0", count: 400)), "ratio": 1e999, "table": {"a": -1e30}}"#
        let model = try ModelMapper.shared.decode(Victim.self, from: json)
        #expect(model.id == 0 && model.ratio == 1.0 && model.table.isEmpty)
        #expect(throws: MappingError.self) {
            _ = try ModelMapper(options: MappingOptions(mode: .strict)).decode(Victim.self, from: json)
        }
    }

    @Test func invalidUTF8IsAnError() {
        var bytes = Array(#"{"name": "ok"#.utf8)
        bytes += [0xC3, 0x28]  // a lead byte followed by a non-continuation
        bytes += Array(#""}"#.utf8)
        #expect {
            _ = try ModelMapper.shared.decode(Victim.self, from: Data(bytes))
        } throws: { error in
            guard let error = error as? MappingError, case .malformedJSON(let read) = error.kind else { return false }
            return read.reason == .invalidUTF8 && read.offset == 12
        }
    }

    @Test func duplicateKeysLastWinsOrRejected() throws {
        let json = #"{"id": 1, "name": "first", "id": 2}"#
        #expect(try ModelMapper.shared.decode(Victim.self, from: json).id == 2)
        let rejecting = ModelMapper(options: MappingOptions(reading: JSONReadOptions(duplicateKeys: .reject)))
        #expect(throws: MappingError.self) { _ = try rejecting.decode(Victim.self, from: json) }
    }

    @Test func nullAndWrongTypesEverywhere() throws {
        let nulls = #"{"id": null, "name": null, "ratio": null, "flags": null, "child": null, "table": null}"#
        let model = try ModelMapper.shared.decode(Victim.self, from: nulls)
        #expect(model.id == 0 && model.name == "default" && model.flags.isEmpty && model.child == nil)
        let wrong = #"{"id": [], "name": {}, "ratio": "x", "flags": [1, "no", {}, null], "child": 3, "table": []}"#
        let wrongModel = try ModelMapper.shared.decode(Victim.self, from: wrong)
        #expect(wrongModel.flags == [true, false])  // 1 and "no" convert; {} and null are left out
        #expect(wrongModel.name == "default")
    }

    /// Seeded random mutations of a valid document: every one gives a model or an error.
    @Test func mutatedDocumentsNeverCrash() throws {
        let valid = Array(
            #"{"id": 12, "name": "x\u00e9", "ratio": 2.5, "flags": [true, false], "child": {"name": "c", "children": [{"name": "d"}]}, "table": {"k": 1}}"#
                .utf8)
        var rng = SeededGenerator(seed: 99)
        let strict = ModelMapper(options: MappingOptions(mode: .strict))
        var outcomes = (models: 0, errors: 0)
        for _ in 0..<3000 {
            var bytes = valid
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                let position = Int.random(in: 0..<bytes.count, using: &rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: bytes[position] = UInt8(truncatingIfNeeded: rng.next())
                case 1: bytes.remove(at: position)
                default:
                    let punctuation = Array(#"{}[]",:0-e\"#.utf8)
                    bytes.insert(punctuation[Int.random(in: 0..<punctuation.count, using: &rng)], at: position)
                }
                if bytes.isEmpty { bytes = [0x7B] }
            }
            for mapper in [ModelMapper.shared, strict] {
                do {
                    _ = try mapper.decode(Victim.self, from: Data(bytes))
                    outcomes.models += 1
                } catch is MappingError {
                    outcomes.errors += 1
                }
            }
        }
        #expect(outcomes.models > 0 && outcomes.errors > 0)
    }
}
