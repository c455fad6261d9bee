import Foundation
import ModelMapper

// The same three models three times: for ModelMapper (no Codable), for Foundation's
// JSONDecoder/JSONEncoder (Codable with explicit CodingKeys, the fastest Codable form), and
// plain structs for the hand-written decoder/encoder. URLs are Strings and dates are Dates
// in all three, as in YYModel's GitHub-user benchmark.

// MARK: ModelMapper

struct MUser: Mappable {
    var login = ""
    var id = 0
    var nodeId = ""
    var avatarUrl = ""
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

    static func configureMapping(_ mapping: inout MappingConfiguration) {
        mapping.keyNaming = .snakeCase
    }
}

struct MLicense: Mappable {
    var key = ""
    var name = ""
    var spdxId = ""

    static func configureMapping(_ mapping: inout MappingConfiguration) {
        mapping.keyNaming = .snakeCase
    }
}

struct MRepo: Mappable {
    var id = 0
    var name = ""
    var fullName = ""
    var `private` = false
    var owner = MUser()
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
    var license: MLicense?
    var createdAt = Date(timeIntervalSince1970: 0)
    var updatedAt = Date(timeIntervalSince1970: 0)
    var pushedAt = Date(timeIntervalSince1970: 0)

    static func configureMapping(_ mapping: inout MappingConfiguration) {
        mapping.keyNaming = .snakeCase
    }
}

struct MFeed: Mappable {
    var totalCount = 0
    var incompleteResults = false
    var items: [MRepo] = []

    static func configureMapping(_ mapping: inout MappingConfiguration) {
        mapping.keyNaming = .snakeCase
    }
}

// MARK: Codable

struct CUser: Codable {
    var login: String
    var id: Int
    var nodeId: String
    var avatarUrl: String
    var gravatarId: String
    var url: String
    var htmlUrl: String
    var followersUrl: String
    var followingUrl: String
    var gistsUrl: String
    var starredUrl: String
    var subscriptionsUrl: String
    var organizationsUrl: String
    var reposUrl: String
    var eventsUrl: String
    var receivedEventsUrl: String
    var type: String
    var siteAdmin: Bool
    var name: String
    var company: String?
    var blog: String
    var location: String
    var email: String?
    var hireable: Bool?
    var bio: String
    var publicRepos: Int
    var publicGists: Int
    var followers: Int
    var following: Int
    var createdAt: Date
    var updatedAt: Date

    enum CodingKeys: String, CodingKey {
        case login, id, url, type, name, company, blog, location, email, hireable, bio, followers, following
        case nodeId = "node_id", avatarUrl = "avatar_url", gravatarId = "gravatar_id", htmlUrl = "html_url"
        case followersUrl = "followers_url", followingUrl = "following_url", gistsUrl = "gists_url"
        case starredUrl = "starred_url", subscriptionsUrl = "subscriptions_url"
        case organizationsUrl = "organizations_url", reposUrl = "repos_url", eventsUrl = "events_url"
        case receivedEventsUrl = "received_events_url", siteAdmin = "site_admin", publicRepos = "public_repos"
        case publicGists = "public_gists", createdAt = "created_at", updatedAt = "updated_at"
    }
}

struct CLicense: Codable {
    var key: String
    var name: String
    var spdxId: String

    enum CodingKeys: String, CodingKey {
        case key, name
        case spdxId = "spdx_id"
    }
}

struct CRepo: Codable {
    var id: Int
    var name: String
    var fullName: String
    var `private`: Bool
    var owner: CUser
    var description: String?
    var fork: Bool
    var homepage: String?
    var size: Int
    var stargazersCount: Int
    var watchersCount: Int
    var language: String?
    var forksCount: Int
    var openIssuesCount: Int
    var score: Double
    var topics: [String]
    var license: CLicense?
    var createdAt: Date
    var updatedAt: Date
    var pushedAt: Date

    enum CodingKeys: String, CodingKey {
        case id, name, `private`, owner, description, fork, homepage, size, language, score, topics, license
        case fullName = "full_name", stargazersCount = "stargazers_count", watchersCount = "watchers_count"
        case forksCount = "forks_count", openIssuesCount = "open_issues_count", createdAt = "created_at"
        case updatedAt = "updated_at", pushedAt = "pushed_at"
    }
}

struct CFeed: Codable {
    var totalCount: Int
    var incompleteResults: Bool
    var items: [CRepo]

    enum CodingKeys: String, CodingKey {
        case items
        case totalCount = "total_count", incompleteResults = "incomplete_results"
    }
}
