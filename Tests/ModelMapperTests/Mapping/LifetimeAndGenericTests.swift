import Foundation
import Synchronization
import Testing

@testable import ModelMapper

/// Counts live instances, so tests can see that decoding and encoding neither leak nor
/// over-release (an over-release would crash or drive the count negative).
let liveTrackedObjects = Atomic<Int>(0)

final class Tracked: Mappable {
    var name = ""
    var child: Tracked?
    var tags: [String] = []
    let fixed: String = "x"
    required init() { liveTrackedObjects.add(1, ordering: .relaxed) }
    deinit { liveTrackedObjects.subtract(1, ordering: .relaxed) }
}

struct TrackedHolder: Mappable {
    var first = Tracked()
    var many: [Tracked] = []
    var maybe: Tracked?
}

struct Page<Item: Mappable>: Mappable {
    var page = 0
    var items: [Item] = []
    var next: Item?
}

/// Models with nothing to map: no stored properties, or only ones without a JSON form.
struct EmptyModel: Mappable {}
final class EmptyClassModel: Mappable { required init() {} }
struct OnlyClosure: Mappable { var action: @Sendable () -> Void = {} }

@Suite(.serialized) struct LifetimeAndGenericTests {
    @Test(arguments: fieldAccessStrategies)
    func modelsWithNothingToMapDecodeAndEncode(_ access: FieldAccessStrategy) throws {
        let mapper = ModelMapper(options: MappingOptions(mode: .strict, fieldAccess: access))
        let json = #"{"ignored": [1, {"x": null}]}"#
        _ = try mapper.decode(EmptyModel.self, from: json)
        _ = try mapper.decode(EmptyClassModel.self, from: json)
        _ = try mapper.decode(OnlyClosure.self, from: json)
        #expect(try mapper.encodeToString(EmptyModel()) == "{}")
        #expect(try mapper.encodeToString(EmptyClassModel()) == "{}")
        #expect(try mapper.encodeToString(OnlyClosure()) == "{}")
        #expect(try mapper.unmappedProperties(of: OnlyClosure.self) == ["action"])
    }

    @Test(arguments: fieldAccessStrategies)
    func decodingAndEncodingNeitherLeakNorOverRelease(_ access: FieldAccessStrategy) throws {
        let mapper = ModelMapper(options: MappingOptions(fieldAccess: access))
        let before = liveTrackedObjects.load(ordering: .relaxed)
        let json = """
            {"first": {"name": "a", "child": {"name": "b"}, "fixed": "y"},
             "many": [{"name": "c"}, {"name": "d", "child": {"name": "e"}}, 17], "maybe": {"name": "f"}}
            """
        for _ in 0..<200 {
            let holder = try mapper.decode(TrackedHolder.self, from: json)
            #expect(holder.first.child?.name == "b" && holder.first.fixed == "y")
            #expect(holder.many.count == 2)
            let data = try mapper.encode(holder)
            let again = try mapper.decode(TrackedHolder.self, from: data)
            #expect(again.many.last?.child?.name == "e")
            // Overwriting fields that already hold objects releases the old ones.
            _ = try mapper.decode(Tracked.self, from: #"{"child": {"name": "1"}}"#)
        }
        // Decoding into a property that already holds an object (the default Tracked()).
        #expect(liveTrackedObjects.load(ordering: .relaxed) == before)
    }

    @Test func genericModelsMapPerSpecialisation() throws {
        let users = try ModelMapper.shared.decode(
            Page<Tag>.self, from: #"{"page": 2, "items": [{"label": "a"}], "next": {"label": "b"}}"#)
        #expect(users.page == 2 && users.items == [Tag(label: "a")] && users.next == Tag(label: "b"))
        let nodes = try ModelMapper.shared.decode(Page<TreeNode>.self, from: #"{"items": [{"name": "n"}]}"#)
        #expect(nodes.items.first?.name == "n")
        #expect(try ModelMapper.shared.encodeToJSONValue(users) == ["page": 2, "items": [["label": "a"]], "next": ["label": "b"]])
    }
}

/// A class model whose nested model's hook replaces the parent's field while the encoder is
/// writing that field: the encoder must hold its own reference (a borrow from the parent's
/// storage would be freed under it; the ASan run of `Tools/sanitize` would report it).
final class ReassigningParent: Mappable {
    var child = ReassigningChild()
    var after = "after"
    required init() {}
}

final class ReassigningChild: Mappable, MappingWillEncode {
    /// Not a stored property of the model, which the mapper would report as unmappable.
    nonisolated(unsafe) static weak var parent: ReassigningParent?
    var name = "a child whose name is longer than fifteen bytes"
    required init() {}

    func willEncode() throws {
        let replacement = ReassigningChild()
        replacement.name = "replacement"
        Self.parent?.child = replacement
    }
}

@Suite struct ReassignedWhileEncodingTests {
    @Test func aHookReplacingTheFieldBeingWrittenIsSafe() throws {
        let parent = ReassigningParent()
        ReassigningChild.parent = parent
        let json = try ModelMapper().encodeToString(parent)
        // The child read before its hook ran is the one written; the parent now holds the replacement.
        #expect(json == #"{"child":{"name":"a child whose name is longer than fifteen bytes"},"after":"after"}"#)
        #expect(parent.child.name == "replacement")
    }
}
