import Testing
@testable import TypeInfo

private struct CacheProbeA { var x = 1 }
private struct CacheProbeB { var y = "b" }
private final class CacheProbeC { var z = 2.0 }

@Suite(.serialized) struct ClassInfoCacheTests {
    @Test func sameInstanceForTheSameType() {
        #expect(ClassInfo.of(CacheProbeA.self) === ClassInfo.of(CacheProbeA.self))
        #expect(ClassInfo.of(CacheProbeA.self) !== ClassInfo.of(CacheProbeB.self))
    }

    @Test func setNeedsUpdateRebuildsOnce() {
        let first = ClassInfo.of(CacheProbeB.self)
        #expect(!first.needsUpdate)
        first.setNeedsUpdate()
        #expect(first.needsUpdate)
        let second = ClassInfo.of(CacheProbeB.self)
        #expect(second !== first)
        #expect(second.generation > first.generation)
        #expect(!second.needsUpdate)
        #expect(ClassInfo.of(CacheProbeB.self) === second)
        // The stale one still answers correctly for whoever holds it.
        #expect(first.propertyInfos.map(\.name) == ["y"])
    }

    @Test func invalidateAllMarksEveryEntry() {
        let a = ClassInfo.of(CacheProbeA.self)
        let c = ClassInfo.of(CacheProbeC.self)
        ClassInfo.invalidateAll()
        #expect(a.needsUpdate && c.needsUpdate)
        let newA = ClassInfo.of(CacheProbeA.self)
        #expect(newA !== a && newA.generation > a.generation)
        #expect(ClassInfo.of(CacheProbeC.self) !== c)
    }

    @Test func manyTypesGrowTheTable() {
        // Tuples of distinct shapes are distinct types: enough of them to force growth.
        var types: [Any.Type] = []
        func add<T>(_: T.Type) {
            types.append(T.self)
            types.append((T, Int).self)
            types.append((T, String).self)
            types.append([T].self)
            types.append(T?.self)
            types.append([String: T].self)
            types.append(Set<Int>.self)
            types.append(((T) -> T).self)
        }
        add(Int8.self); add(Int16.self); add(Int32.self); add(Int64.self); add(UInt8.self); add(UInt16.self)
        add(UInt32.self); add(UInt64.self); add(Float.self); add(Double.self); add(String.self); add(Bool.self)
        add(Character.self); add(MixedScalars.self); add(Nested.self); add(Inner.self); add(Optionals.self)
        add(Dog.self); add(Animal.self); add(Mammal.self); add(Tree.self); add(NoPayload.self); add(WithPayload.self)
        add(Box<Int>.self); add(Box<String>.self); add(Pair<Int, Int>.self); add(LazyHolder.self); add(Wrapped.self)
        add(Collections.self); add(Tuples.self); add(Closures.self); add(Existentials.self); add(Statics.self)
        let infos = types.map { ClassInfo.of($0) }
        for (type, info) in zip(types, infos) {
            #expect(isSame(info.type, type))
            #expect(ClassInfo.of(type) === info || info.needsUpdate)
        }
    }

    @Test func concurrentReadsAndInvalidationsStayConsistent() async {
        let types: [Any.Type] = [
            MixedScalars.self, Nested.self, Optionals.self, Dog.self, Mammal.self, Animal.self,
            Box<Int>.self, Box<String>.self, GenericNode<Int>.self, WithPayload.self, Ownerships.self, FinalThing.self,
        ]
        let expected = types.map { type in ClassInfo.of(type).propertyInfos.map { "\($0.name)@\($0.offset)" } }
        let failures = await withTaskGroup(of: Int.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var failures = 0
                    for round in 0..<2_000 {
                        let index = (round + worker) % types.count
                        let info = ClassInfo.of(types[index])
                        if info.type != types[index] { failures += 1 }
                        if info.propertyInfos.map({ "\($0.name)@\($0.offset)" }) != expected[index] { failures += 1 }
                        if let superInfo = info.superclassInfo, !isSame(superInfo.type, info.superclass) {
                            failures += 1
                        }
                    }
                    return failures
                }
            }
            for invalidator in 0..<2 {
                group.addTask {
                    for round in 0..<300 {
                        if (round + invalidator).isMultiple(of: 3) {
                            ClassInfo.invalidateAll()
                        } else {
                            ClassInfo.of(types[round % types.count]).setNeedsUpdate()
                        }
                        await Task.yield()
                    }
                    return 0
                }
            }
            return await group.reduce(0, +)
        }
        #expect(failures == 0)
        // After the storm, lookups are stable again.
        for type in types {
            let info = ClassInfo.of(type)
            #expect(ClassInfo.of(type) === info)
        }
    }
}
