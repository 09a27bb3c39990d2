import Foundation
@testable import OfflineStore
import Testing

/// `ODataMetadata.read`: the test server's documents, a .NET-style one, and typed errors.
@Suite("OData $metadata reader")
struct ODataMetadataTests {
    static func read(_ text: String) throws -> ODataMetadata {
        try ODataMetadata.read(Data(text.utf8))
    }

    @Test func theFixtureDocumentGivesKeysTypesComputedFieldsReferencesAndConcurrency() throws {
        let metadata = try Self.read(ODataSamples.fixtureMetadata)
        #expect(metadata.entitySets.keys.sorted() == ["Customers", "Orders", "Tasks"])
        let tasks = try metadata.entitySet("Tasks")
        #expect(tasks.entityType == "Fixture.Task")
        #expect(try tasks.key() == ODataKey(entitySet: "Tasks", property: "ID", type: .guid))
        #expect(tasks.properties.map(\.name) == ["ID", "Title", "Done", "Priority", "Notes", "CreatedAt", "ModifiedAt"])
        #expect(tasks.property("Priority") == ODataProperty(name: "Priority", type: "Edm.Int32", nullable: true))
        #expect(tasks.property("Title")?.nullable == false)
        #expect(tasks.computed == ["CreatedAt", "ModifiedAt"])
        #expect(tasks.concurrency == ["ModifiedAt"])
        #expect(tasks.navigation.isEmpty)

        #expect(try metadata.entitySet("Customers").key().type == .int32)
        #expect(try metadata.entitySet("Customers").computed == ["ID", "CreatedAt", "ModifiedAt"])
        let orders = try metadata.entitySet("Orders")
        #expect(try orders.key().type == .int64)
        #expect(orders.navigation == [ODataNavigation(
            name: "Customer", targetType: "Fixture.Customer", isCollection: false, nullable: false, targetSet: "Customers",
            constraints: [ODataReferentialConstraint(property: "CustomerID", referencedProperty: "ID")])])
    }

    @Test func plainModesEmptyConcurrencyListIsEmptyNotAbsent() throws {
        let metadata = try Self.read(ODataSamples.plainMetadata)
        #expect(try metadata.entitySet("Tasks").concurrency == [])
        #expect(try metadata.entitySet("Tasks").computed == ["CreatedAt", "ModifiedAt"])
    }

    @Test func aliasesBaseTypesAndOutOfLineAnnotationsAreResolved() throws {
        let metadata = try Self.read(ODataSamples.aliasedMetadata)
        let orders = try metadata.entitySet("Orders")
        #expect(orders.entityType == "Shop.Models.Order")
        #expect(try orders.key() == ODataKey(entitySet: "Orders", property: "Id", type: .int64))
        #expect(orders.properties.map(\.name) == ["Id", "RowVersion", "CustomerId", "Created"])
        #expect(orders.computed == ["RowVersion", "Created"])
        #expect(orders.concurrency == ["RowVersion"])
        #expect(orders.navigation.first?.targetSet == "Customers")
        let customers = try metadata.entitySet("Customers")
        #expect(customers.concurrency == nil)
        #expect(customers.property("Address")?.type == "Shop.Models.Address")
        #expect(customers.property("Tags")?.type == "Collection(Edm.String)")
        #expect(customers.navigation == [ODataNavigation(name: "Orders", targetType: "Shop.Models.Order", isCollection: true,
                                                         nullable: true, targetSet: "Orders", constraints: [])])
    }

    @Test func keysTheStoreCannotSyncAreRefusedByName() throws {
        let metadata = try Self.read(ODataSamples.aliasedMetadata)
        let composite = try metadata.entitySet("OrderLines")
        #expect(composite.keyProperties == ["OrderId", "Line"])
        let error = #expect(throws: OfflineStoreError.self) { try composite.key() }
        #expect(error?.code == .configuration)
        #expect(error?.message.contains("OrderLines: its key has 2 properties (OrderId, Line)") == true)

        let int16 = ODataSamples.fixtureMetadata.replacingOccurrences(of: #"<Property Name="ID" Type="Edm.Guid""#,
                                                                       with: #"<Property Name="ID" Type="Edm.Int16""#)
        let typeError = #expect(throws: OfflineStoreError.self) { try Self.read(int16).entitySet("Tasks").key() }
        #expect(typeError?.code == .configuration)
        #expect(typeError?.message.contains("its key ID is Edm.Int16") == true)

        let missing = #expect(throws: OfflineStoreError.self) { try metadata.entitySet("Products") }
        #expect(missing?.code == .configuration)
        #expect(missing?.message.contains("its sets: Customers, OrderLines, Orders") == true)
    }

    /// Each broken document is refused with `badResponse`, and the message names what is wrong.
    @Test(arguments: [
        ("", "not well-formed XML"),
        ("<html><body>Bad Gateway</body></html>", "the root is html"),
        ("<edmx:Edmx xmlns:edmx=\"http://schemas.microsoft.com/ado/2007/06/edmx\"/>", "OData 2 or 3 metadata"),
        ("<edmx:Edmx xmlns:edmx=\"http://docs.oasis-open.org/odata/ns/edmx\"><edmx:DataServices>", "not well-formed XML"),
    ])
    func documentsThatAreNotCSDLAreRefused(document: String, says: String) {
        let error = #expect(throws: OfflineStoreError.self) { try Self.read(document) }
        #expect(error?.code == .badResponse)
        #expect(error?.message.contains(says) == true, "\(error?.message ?? "")")
    }

    /// A document that names what it does not declare: each mistake, and the words that name it.
    @Test(arguments: [
        (#"EntityType="Fixture.Task""#, #"EntityType="Fixture.Tsk""#, "Fixture.Tsk is not a declared entity type"),
        (#"<PropertyRef Name="ID"/>"#, #"<PropertyRef Name="Id"/>"#, "the key Id of Fixture.Task is not one of its properties"),
        (#"Target="Customers""#, #"Target="Clients""#, "bound to Clients, which is not a declared entity set"),
        (#"Name="Customer" Type="Fixture.Customer""#, #"Name="Customer" Type="Fixture.Client""#, "refers to Fixture.Client"),
        (#"<EntityType Name="Customer">"#, #"<EntityType>"#, "EntityType without Name"),
        (#"<EntityType Name="Customer">"#, #"<EntityType Name="Task">"#, "Fixture.Task is declared twice"),
        (#"<EntityType Name="Task">"#, #"<EntityType Name="Task" BaseType="Fixture.Task">"#, "form a cycle"),
    ])
    func undeclaredNamesAreRefusedByName(replacing: String, with: String, says: String) {
        let document = ODataSamples.fixtureMetadata.replacingOccurrences(of: replacing, with: with)
        #expect(document != ODataSamples.fixtureMetadata)
        let error = #expect(throws: OfflineStoreError.self) { try Self.read(document) }
        #expect(error?.code == .badResponse)
        #expect(error?.message.contains(says) == true, "\(error?.message ?? "")")
    }

    /// An attribute name with a byte that is not UTF-8 trapped inside swift-corelibs-foundation's
    /// XMLParser; the reader refuses such bytes before parsing.
    @Test func bytesThatAreNotUTF8AreRefusedBeforeParsing() {
        var document = Array(ODataSamples.fixtureMetadata.utf8)
        let at = document.indices.first { document[$0...].starts(with: Array(#"Name="CustomerID""#.utf8)) }!
        document[at + 3] = 0xC3
        let error = #expect(throws: OfflineStoreError.self) { try ODataMetadata.read(Data(document)) }
        #expect(error?.code == .badResponse)
        #expect(error?.message == "the $metadata is not UTF-8 text")
    }

    @Test func aComputedAnnotationSetToFalseIsNotComputed() throws {
        let document = ODataSamples.fixtureMetadata.replacingOccurrences(
            of: #"<Property Name="Title" Type="Edm.String" Nullable="false"/>"#,
            with: #"<Property Name="Title" Type="Edm.String" Nullable="false"><Annotation Term="Org.OData.Core.V1.Computed" Bool="false"/></Property>"#)
        #expect(try Self.read(document).entitySet("Tasks").computed == ["CreatedAt", "ModifiedAt"])
    }
}
