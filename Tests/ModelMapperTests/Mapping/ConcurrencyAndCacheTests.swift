import Foundation
import Testing
import TypeInfo

@testable import ModelMapper

struct CacheProbe: Mappable, Equatable {
    var a = 0
    var b = ""
}

final class CacheProbeClass: Mappable {
    var x = 0
    var items: [CacheProbe] = []
    required init() {}
}

struct ConcurrentA: Mappable, Equatable {
    var id = 0
    var name = ""
    var child = CacheProbe()
}

struct ConcurrentB: Mappable, Equatable {
    var values: [Int] = []
    var label: String?
}

@Suite struct ConcurrencyAndCacheTests {
    @Test func plansAreCachedAndRebuiltWhenClassInfoIsInvalidated() throws {
        let mapper = ModelMapper()
        let first = try mapper.plan(for: CacheProbe.self)
        #expect(try mapper.plan(for: CacheProbe.self) === first)
        ClassInfo.of(CacheProbe.self).setNeedsUpdate()
        let rebuilt = try mapper.plan(for: CacheProbe.self)
        #expect(rebuilt !== first)
        #expect(rebuilt.generation != first.generation)
        #expect(rebuilt.info === ClassInfo.of(CacheProbe.self))
        #expect(try mapper.plan(for: CacheProbe.self) === rebuilt)
        #expect(try mapper.decode(CacheProbe.self, from: #"{"a": 1, "b": "x"}"#) == CacheProbe(a: 1, b: "x"))
    }

    @Test func fieldAccessStrategyIsHonouredForStructsAndClasses() throws {
        #expect(MappingOptions().fieldAccess == .instanceStorage)
        let storage = ModelMapper(options: MappingOptions(fieldAccess: .instanceStorage))
        #expect(try storage.plan(for: CacheProbe.self).usesInstanceStorage)
        #expect(try storage.plan(for: CacheProbeClass.self).usesInstanceStorage)
        #expect(try storage.plan(for: Dog.self).usesInstanceStorage)  // inherited fields too
        #expect(try storage.plan(for: Temperature.self).usesInstanceStorage)  // transformers too
        let viaPropertyInfo = ModelMapper(options: MappingOptions(fieldAccess: .propertyInfo))
        #expect(try !viaPropertyInfo.plan(for: CacheProbe.self).usesInstanceStorage)
        #expect(try !viaPropertyInfo.plan(for: CacheProbeClass.self).usesInstanceStorage)
        #expect(try !viaPropertyInfo.plan(for: Temperature.self).usesInstanceStorage)
    }

    @Test func plansAreRebuiltWhenTheConfigurationChanges() throws {
        let mapper = ModelMapper()
        let first = try mapper.plan(for: CacheProbe.self)
        mapper.configure(CacheProbe.self) { $0.map("a", to: "alpha") }
        let second = try mapper.plan(for: CacheProbe.self)
        #expect(second !== first)
        #expect(try mapper.decode(CacheProbe.self, from: #"{"alpha": 5}"#).a == 5)
        mapper.invalidatePlans()
        #expect(try mapper.plan(for: CacheProbe.self) !== second)
        #expect(try mapper.decode(CacheProbe.self, from: #"{"alpha": 6}"#).a == 6)
    }

    @Test func nestedPlansFollowInvalidationToo() throws {
        let mapper = ModelMapper()
        let json = #"{"x": 1, "items": [{"a": 2}]}"#
        #expect(try mapper.decode(CacheProbeClass.self, from: json).items.first?.a == 2)
        mapper.configure(CacheProbe.self) { $0.excludedProperties = ["a"] }
        #expect(try mapper.decode(CacheProbeClass.self, from: json).items.first?.a == 0)
    }

    @Test func concurrentDecodesOfTheSameAndDifferentTypesWhileInvalidating() async throws {
        let mapper = ModelMapper(options: MappingOptions(mode: .strict))
        let jsonA = Data(#"{"id": 7, "name": "seven", "child": {"a": 1, "b": "one"}}"#.utf8)
        let jsonB = Data(#"{"values": [1, 2, 3], "label": null}"#.utf8)
        let expectedA = ConcurrentA(id: 7, name: "seven", child: CacheProbe(a: 1, b: "one"))
        let expectedB = ConcurrentB(values: [1, 2, 3], label: nil)
        let failures = try await withThrowingTaskGroup(of: Int.self) { group in
            for task in 0..<16 {
                group.addTask {
                    var failures = 0
                    for round in 0..<300 {
                        switch (task + round) % 5 {
                        case 0:
                            if try mapper.decode(ConcurrentA.self, from: jsonA) != expectedA { failures += 1 }
                        case 1:
                            if try mapper.decode(ConcurrentB.self, from: jsonB) != expectedB { failures += 1 }
                        case 2:
                            let data = try mapper.encode(expectedA)
                            if try mapper.decode(ConcurrentA.self, from: data) != expectedA { failures += 1 }
                        case 3:
                            // Invalidate this test's own types only (other suites rely on ClassInfo identity).
                            ClassInfo.of(ConcurrentA.self).setNeedsUpdate()
                            ClassInfo.of(CacheProbe.self).setNeedsUpdate()
                        default:
                            mapper.configure(ConcurrentB.self) { _ in }
                            if try mapper.decode([ConcurrentB].self, from: Data("[\(String(decoding: jsonB, as: UTF8.self))]".utf8))
                                != [expectedB]
                            {
                                failures += 1
                            }
                        }
                    }
                    return failures
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(failures == 0)
    }
}
