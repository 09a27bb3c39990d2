/// Answers of the OData test server (Fixtures/odata-server, scripts/odata-server), captured
/// with curl, and documents written the way other OData servers write them.
enum ODataSamples {
    /// `GET $metadata` of the test server in delta mode (one element per line; as served,
    /// the document is one line). Plain mode's differs only in an empty
    /// `OptimisticConcurrency` collection.
    static let fixtureMetadata = #"""
<?xml version="1.0" encoding="UTF-8"?>
<edmx:Edmx xmlns:edmx="http://docs.oasis-open.org/odata/ns/edmx" Version="4.01">
<edmx:DataServices>
<Schema xmlns="http://docs.oasis-open.org/odata/ns/edm" Namespace="Fixture">
<EntityType Name="Task">
<Key>
<PropertyRef Name="ID"/>
</Key>
<Property Name="ID" Type="Edm.Guid" Nullable="false"/>
<Property Name="Title" Type="Edm.String" Nullable="false"/>
<Property Name="Done" Type="Edm.Boolean" Nullable="false" DefaultValue="false"/>
<Property Name="Priority" Type="Edm.Int32"/>
<Property Name="Notes" Type="Edm.String"/>
<Property Name="CreatedAt" Type="Edm.DateTimeOffset" Nullable="false" Precision="3">
<Annotation Term="Org.OData.Core.V1.Computed" Bool="true"/>
</Property>
<Property Name="ModifiedAt" Type="Edm.DateTimeOffset" Nullable="false" Precision="3">
<Annotation Term="Org.OData.Core.V1.Computed" Bool="true"/>
</Property>
</EntityType>
<EntityType Name="Customer">
<Key>
<PropertyRef Name="ID"/>
</Key>
<Property Name="ID" Type="Edm.Int32" Nullable="false">
<Annotation Term="Org.OData.Core.V1.Computed" Bool="true"/>
</Property>
<Property Name="Name" Type="Edm.String" Nullable="false"/>
<Property Name="Email" Type="Edm.String"/>
<Property Name="CreatedAt" Type="Edm.DateTimeOffset" Nullable="false" Precision="3">
<Annotation Term="Org.OData.Core.V1.Computed" Bool="true"/>
</Property>
<Property Name="ModifiedAt" Type="Edm.DateTimeOffset" Nullable="false" Precision="3">
<Annotation Term="Org.OData.Core.V1.Computed" Bool="true"/>
</Property>
</EntityType>
<EntityType Name="Order">
<Key>
<PropertyRef Name="ID"/>
</Key>
<Property Name="ID" Type="Edm.Int64" Nullable="false">
<Annotation Term="Org.OData.Core.V1.Computed" Bool="true"/>
</Property>
<Property Name="CustomerID" Type="Edm.Int32" Nullable="false"/>
<Property Name="Product" Type="Edm.String" Nullable="false"/>
<Property Name="Quantity" Type="Edm.Int32" Nullable="false"/>
<Property Name="CreatedAt" Type="Edm.DateTimeOffset" Nullable="false" Precision="3">
<Annotation Term="Org.OData.Core.V1.Computed" Bool="true"/>
</Property>
<Property Name="ModifiedAt" Type="Edm.DateTimeOffset" Nullable="false" Precision="3">
<Annotation Term="Org.OData.Core.V1.Computed" Bool="true"/>
</Property>
<NavigationProperty Name="Customer" Type="Fixture.Customer" Nullable="false">
<ReferentialConstraint Property="CustomerID" ReferencedProperty="ID"/>
</NavigationProperty>
</EntityType>
<EntityContainer Name="Container">
<EntitySet Name="Tasks" EntityType="Fixture.Task">
<Annotation Term="Org.OData.Core.V1.OptimisticConcurrency">
<Collection>
<PropertyPath>ModifiedAt</PropertyPath>
</Collection>
</Annotation>
</EntitySet>
<EntitySet Name="Customers" EntityType="Fixture.Customer">
<Annotation Term="Org.OData.Core.V1.OptimisticConcurrency">
<Collection>
<PropertyPath>ModifiedAt</PropertyPath>
</Collection>
</Annotation>
</EntitySet>
<EntitySet Name="Orders" EntityType="Fixture.Order">
<NavigationPropertyBinding Path="Customer" Target="Customers"/>
<Annotation Term="Org.OData.Core.V1.OptimisticConcurrency">
<Collection>
<PropertyPath>ModifiedAt</PropertyPath>
</Collection>
</Annotation>
</EntitySet>
</EntityContainer>
</Schema>
</edmx:DataServices>
</edmx:Edmx>
"""#

    /// Plain mode's `$metadata`: the same with no property in `OptimisticConcurrency`.
    static let plainMetadata = fixtureMetadata.replacingOccurrences(of: "<PropertyPath>ModifiedAt</PropertyPath>", with: "")

    /// A CSDL document written the way .NET services write theirs: aliases for the
    /// namespace and the Core vocabulary, a base type holding the key, `<Bool>` elements,
    /// out-of-line annotations, a binding written with its container, a complex type, and
    /// an entity set whose key is composite.
    static let aliasedMetadata = #"""
    <?xml version="1.0" encoding="utf-8"?>
    <edmx:Edmx Version="4.0" xmlns:edmx="http://docs.oasis-open.org/odata/ns/edmx">
      <edmx:Reference Uri="https://oasis-tcs.github.io/odata-vocabularies/vocabularies/Org.OData.Core.V1.xml">
        <edmx:Include Namespace="Org.OData.Core.V1" Alias="Core" />
      </edmx:Reference>
      <edmx:DataServices>
        <Schema Namespace="Shop.Models" Alias="Self" xmlns="http://docs.oasis-open.org/odata/ns/edm">
          <EntityType Name="Entity" Abstract="true">
            <Key><PropertyRef Name="Id" /></Key>
            <Property Name="Id" Type="Edm.Int64" Nullable="false" />
            <Property Name="RowVersion" Type="Edm.Binary">
              <Annotation Term="Core.Computed"><Bool>true</Bool></Annotation>
            </Property>
          </EntityType>
          <EntityType Name="Customer" BaseType="Self.Entity">
            <Property Name="Name" Type="Edm.String" />
            <Property Name="Address" Type="Self.Address" />
            <Property Name="Tags" Type="Collection(Edm.String)" Nullable="false" />
            <NavigationProperty Name="Orders" Type="Collection(Self.Order)" />
          </EntityType>
          <EntityType Name="Order" BaseType="Self.Entity">
            <Property Name="CustomerId" Type="Edm.Int64" Nullable="false" />
            <Property Name="Created" Type="Edm.DateTimeOffset" Nullable="false" />
            <NavigationProperty Name="Customer" Type="Self.Customer" Nullable="false">
              <ReferentialConstraint Property="CustomerId" ReferencedProperty="Id" />
              <Annotation Term="Core.Computed" Bool="true" />
            </NavigationProperty>
          </EntityType>
          <EntityType Name="OrderLine">
            <Key><PropertyRef Name="OrderId" /><PropertyRef Name="Line" /></Key>
            <Property Name="OrderId" Type="Edm.Int64" Nullable="false" />
            <Property Name="Line" Type="Edm.Int32" Nullable="false" />
          </EntityType>
          <ComplexType Name="Address">
            <Property Name="City" Type="Edm.String" />
          </ComplexType>
          <EntityContainer Name="Container">
            <EntitySet Name="Customers" EntityType="Self.Customer">
              <NavigationPropertyBinding Path="Orders" Target="Orders" />
            </EntitySet>
            <EntitySet Name="Orders" EntityType="Shop.Models.Order">
              <NavigationPropertyBinding Path="Customer" Target="Shop.Models.Container/Customers" />
            </EntitySet>
            <EntitySet Name="OrderLines" EntityType="Self.OrderLine" />
          </EntityContainer>
          <Annotations Target="Self.Order/Created">
            <Annotation Term="Core.Computed" />
          </Annotations>
          <Annotations Target="Self.Container/Orders">
            <Annotation Term="Core.OptimisticConcurrency">
              <Collection><PropertyPath>RowVersion</PropertyPath></Collection>
            </Annotation>
          </Annotations>
        </Schema>
      </edmx:DataServices>
    </edmx:Edmx>
    """#

    /// The first page of `GET Tasks` with `Prefer: odata.track-changes`, delta mode, page size 3.
    static let deltaModePage = #"""
    {"@odata.context":"http://127.0.0.1:18761/odata/$metadata#Tasks","value":[{"@odata.etag":"W/\"1\"","ID":"00000000-0000-4000-8000-000000000001","Title":"t1","Done":false,"Priority":null,"Notes":null,"CreatedAt":"2026-11-28T02:56:59.831Z","ModifiedAt":"2026-11-28T02:56:59.831Z"},{"@odata.etag":"W/\"1\"","ID":"00000000-0000-4000-8000-000000000002","Title":"t2","Done":false,"Priority":null,"Notes":null,"CreatedAt":"2026-11-28T02:56:59.949Z","ModifiedAt":"2026-11-28T02:56:59.949Z"},{"@odata.etag":"W/\"1\"","ID":"00000000-0000-4000-8000-000000000003","Title":"t3","Done":false,"Priority":null,"Notes":null,"CreatedAt":"2026-11-28T02:57:00.039Z","ModifiedAt":"2026-11-28T02:57:00.039Z"}],"@odata.nextLink":"http://127.0.0.1:18761/odata/Tasks?$skiptoken=3%21UUID%28%2700000000-0000-4000-8000-000000000003%27%29","@odata.deltaLink":"http://127.0.0.1:18761/odata/Tasks?$deltatoken=4"}
    """#

    /// Its deltaLink after one update and one delete (OData 4.01, the server's default).
    static let deltaAnswer = #"""
    {"@odata.context":"http://127.0.0.1:18761/odata/$metadata#Tasks/$delta","value":[{"@odata.id":"http://127.0.0.1:18761/odata/Tasks(00000000-0000-4000-8000-000000000001)","@odata.etag":"W/\"2\"","ID":"00000000-0000-4000-8000-000000000001","Title":"t1b","Done":false,"Priority":2,"Notes":null,"CreatedAt":"2026-11-28T02:56:59.831Z","ModifiedAt":"2026-11-28T02:57:00.476Z"},{"@removed":{"reason":"deleted"},"@id":"http://127.0.0.1:18761/odata/Tasks(00000000-0000-4000-8000-000000000002)"}],"@odata.deltaLink":"http://127.0.0.1:18761/odata/Tasks?$deltatoken=6"}
    """#

    /// The same delta asked with `OData-MaxVersion: 4.0`.
    static let deltaAnswer40 = #"""
    {"@odata.context":"http://127.0.0.1:18761/odata/$metadata#Tasks/$delta","value":[{"@odata.id":"http://127.0.0.1:18761/odata/Tasks(00000000-0000-4000-8000-000000000001)","@odata.etag":"W/\"2\"","ID":"00000000-0000-4000-8000-000000000001","Title":"t1b","Done":false,"Priority":2,"Notes":null,"CreatedAt":"2026-11-28T02:56:59.831Z","ModifiedAt":"2026-11-28T02:57:00.476Z"},{"@odata.context":"http://127.0.0.1:18761/odata/$metadata#Tasks/$deletedEntity","id":"http://127.0.0.1:18761/odata/Tasks(00000000-0000-4000-8000-000000000002)","reason":"deleted"}],"@odata.deltaLink":"http://127.0.0.1:18761/odata/Tasks?$deltatoken=6"}
    """#

    /// The first page of `GET Tasks`, plain mode, page size 3: a row-offset skiptoken, no deltaLink.
    static let plainModePage = #"""
    {"@odata.context":"http://127.0.0.1:18762/odata/$metadata#Tasks","value":[{"@odata.etag":"W/\"1795834619879\"","ID":"00000000-0000-4000-8000-000000000001","Title":"t1","Done":false,"Priority":null,"Notes":null,"CreatedAt":"2026-11-28T02:56:59.879Z","ModifiedAt":"2026-11-28T02:56:59.879Z"},{"@odata.etag":"W/\"1795834619990\"","ID":"00000000-0000-4000-8000-000000000002","Title":"t2","Done":false,"Priority":null,"Notes":null,"CreatedAt":"2026-11-28T02:56:59.99Z","ModifiedAt":"2026-11-28T02:56:59.99Z"},{"@odata.etag":"W/\"1795834620066\"","ID":"00000000-0000-4000-8000-000000000003","Title":"t3","Done":false,"Priority":null,"Notes":null,"CreatedAt":"2026-11-28T02:57:00.066Z","ModifiedAt":"2026-11-28T02:57:00.066Z"}],"@odata.nextLink":"http://127.0.0.1:18762/odata/Tasks?$skiptoken=3"}
    """#

    /// A JSON `$batch` whose atomicity group failed, delta mode: only the failing request is listed.
    static let deltaFailedGroup = #"""
    {"responses":[{"id":"2","atomicityGroup":"g","status":412,"headers":{"content-type":"application/json","odata-version":"4.01"},"body":{"error":{"code":"412","message":"The If-Match precondition failed."}}}]}
    """#

    /// The same batch, plain mode: the undone create is listed as 201.
    static let plainFailedGroup = #"""
    {"responses":[{"id":"1","atomicityGroup":"g","status":201,"headers":{"location":"http://127.0.0.1:18762/odata/Tasks(00000000-0000-4000-8000-000000000009)","etag":"W/\"1795834620588\"","content-type":"application/json;odata.metadata=minimal","odata-version":"4.01"},"body":{"@odata.context":"http://127.0.0.1:18762/odata/$metadata#Tasks/$entity","@odata.etag":"W/\"1795834620588\"","ID":"00000000-0000-4000-8000-000000000009","Title":"n","Done":false,"Priority":null,"Notes":null,"CreatedAt":"2026-11-28T02:57:00.588Z","ModifiedAt":"2026-11-28T02:57:00.588Z"}},{"id":"2","atomicityGroup":"g","status":412,"headers":{"content-type":"application/json","odata-version":"4.01"},"body":{"error":{"code":"PreconditionFailed","message":"The If-Match precondition failed.","target":null}}}]}
    """#
}
