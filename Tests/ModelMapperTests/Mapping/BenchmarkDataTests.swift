import Foundation
import Testing

@testable import ModelMapper

// The benchmark's inputs, decoded into models like the benchmark's, checked field by field
// against JSONSerialization's reading of the same file.

struct GitHubUser: Mappable {
    var login = ""
    var id = 0
    var nodeId = ""
    var avatarUrl: URL?
    var gravatarId = ""
    var url = ""
    var htmlUrl = ""
    var followersUrl = ""
    var followingUrl = ""
    var gistsUrl = ""
    var starredUrl = ""
    var subscriptionsUrl = ""
    var organizationsUrl = ""
    var reposUrl = ""
    var eventsUrl = ""
    var receivedEventsUrl = ""
    var type = ""
    var siteAdmin = false
    var name = ""
    var company: String?
    var blog = ""
    var location = ""
    var email: String?
    var hireable: Bool?
    var bio = ""
    var publicRepos = 0
    var publicGists = 0
    var followers = 0
    var following = 0
    var createdAt = Date(timeIntervalSince1970: 0)
    var updatedAt = Date(timeIntervalSince1970: 0)
}

struct RepoLicense: Mappable {
    var key = ""
    var name = ""
    var spdxId = ""
}

struct Repository: Mappable {
    var id = 0
    var name = ""
    var fullName = ""
    var `private` = false
    var owner = GitHubUser()
    var description: String?
    var fork = false
    var homepage: String?
    var size = 0
    var stargazersCount = 0
    var watchersCount = 0
    var language: String?
    var forksCount = 0
    var openIssuesCount = 0
    var score = 0.0
    var topics: [String] = []
    var license: RepoLicense?
    var createdAt = Date(timeIntervalSince1970: 0)
    var updatedAt = Date(timeIntervalSince1970: 0)
    var pushedAt = Date(timeIntervalSince1970: 0)
}

struct RepositoryFeed: Mappable {
    var totalCount = 0
    var incompleteResults = false
    var items: [Repository] = []
}

@Suite struct BenchmarkDataTests {
    static let mapper = ModelMapper(options: MappingOptions(mode: .strict, keyNaming: .snakeCase))

    static func resource(_ name: String) throws -> Data {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Resources"))
        return try Data(contentsOf: url)
    }

    @Test func githubUserMatchesJSONSerialization() throws {
        let data = try Self.resource("github-user")
        let user = try Self.mapper.decode(GitHubUser.self, from: data)
        let oracle = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(user.login == oracle["login"] as? String)
        #expect(user.id == (oracle["id"] as? NSNumber)?.intValue)
        #expect(user.avatarUrl?.absoluteString == oracle["avatar_url"] as? String)
        #expect(user.bio == oracle["bio"] as? String)
        #expect(user.company == nil && oracle["company"] is NSNull)
        #expect(user.createdAt == ISO8601DateFormatter().date(from: oracle["created_at"] as? String ?? ""))
        // Every field: our re-encoding equals Foundation's reading, key for key.
        #expect(sortedJSON(try Self.mapper.encodeToDictionary(user)) == sortedJSON(oracle))
    }

    @Test(arguments: [FieldAccessStrategy.instanceStorage, .propertyInfo])
    func repositoryFeedMatchesJSONSerialization(_ access: FieldAccessStrategy) throws {
        let data = try Self.resource("repo-feed")
        let mapper = ModelMapper(options: MappingOptions(mode: .strict, keyNaming: .snakeCase, fieldAccess: access))
        let feed = try mapper.decode(RepositoryFeed.self, from: data)
        let oracle = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let items = try #require(oracle["items"] as? [[String: Any]])
        #expect(feed.items.count == items.count)
        #expect(feed.totalCount == (oracle["total_count"] as? NSNumber)?.intValue)
        for (model, object) in zip(feed.items, items) {
            #expect(model.fullName == object["full_name"] as? String)
            #expect(model.score == (object["score"] as? NSNumber)?.doubleValue)
            #expect(model.license?.spdxId == (object["license"] as? [String: Any])?["spdx_id"] as? String)
            #expect(model.owner.login == (object["owner"] as? [String: Any])?["login"] as? String)
        }
        #expect(sortedJSON(try mapper.encodeToDictionary(feed)) == sortedJSON(oracle))
    }
}
