"""The fixture's entity model: Tasks, Customers and Orders in the namespace ``Fixture``.

Tasks have a Guid key that the client may choose (the server makes one when a create
leaves it out); Customers (Int32) and Orders (Int64) have keys the server assigns, marked
``Core.Computed`` like the timestamps. An Order refers to its Customer by ``CustomerID``,
declared as a navigation property with a referential constraint.

``Core.OptimisticConcurrency`` lists ``ModifiedAt`` in delta mode and nothing in plain
mode, where the server still sends ETags: the other framework this mode imitates writes
the annotation with an empty list.
"""

from __future__ import annotations

from odatapy.edm.annotations import Collection, Path, PathKind
from odatapy.edm.csdl import (
    CsdlAbstractEdmProvider,
    CsdlAnnotation,
    CsdlEntityContainer,
    CsdlEntitySet,
    CsdlEntityType,
    CsdlNavigationProperty,
    CsdlNavigationPropertyBinding,
    CsdlProperty,
    CsdlPropertyRef,
    CsdlReferentialConstraint,
    CsdlSchema,
)

NAMESPACE = "Fixture"
COMPUTED = "Org.OData.Core.V1.Computed"
OPTIMISTIC_CONCURRENCY = "Org.OData.Core.V1.OptimisticConcurrency"

#: Entity set -> (entity type name, key property, key type, server assigns the key).
ENTITY_SETS = {
    "Tasks": ("Task", "ID", "Edm.Guid", False),
    "Customers": ("Customer", "ID", "Edm.Int32", True),
    "Orders": ("Order", "ID", "Edm.Int64", True),
}

#: The properties the server writes itself, on every entity type.
TIMESTAMPS = ("CreatedAt", "ModifiedAt")


def _computed() -> list[CsdlAnnotation]:
    return [CsdlAnnotation(term=COMPUTED, value=True)]


def _timestamps() -> list[CsdlProperty]:
    return [
        CsdlProperty(name=name, type="Edm.DateTimeOffset", nullable=False, precision=3,
                     annotations=_computed())
        for name in TIMESTAMPS
    ]


class FixtureProvider(CsdlAbstractEdmProvider):
    """The CSDL of the fixture; ``concurrency`` names the properties behind the ETags."""

    def __init__(self, concurrency: list[str]) -> None:
        self.concurrency = concurrency

    def get_schemas(self) -> list[CsdlSchema]:
        task = CsdlEntityType(
            name="Task",
            key=[CsdlPropertyRef(name="ID")],
            properties=[
                CsdlProperty(name="ID", type="Edm.Guid", nullable=False),
                CsdlProperty(name="Title", type="Edm.String", nullable=False),
                CsdlProperty(name="Done", type="Edm.Boolean", nullable=False, default_value="false"),
                CsdlProperty(name="Priority", type="Edm.Int32"),
                CsdlProperty(name="Notes", type="Edm.String"),
                *_timestamps(),
            ],
        )
        customer = CsdlEntityType(
            name="Customer",
            key=[CsdlPropertyRef(name="ID")],
            properties=[
                CsdlProperty(name="ID", type="Edm.Int32", nullable=False, annotations=_computed()),
                CsdlProperty(name="Name", type="Edm.String", nullable=False),
                CsdlProperty(name="Email", type="Edm.String"),
                *_timestamps(),
            ],
        )
        order = CsdlEntityType(
            name="Order",
            key=[CsdlPropertyRef(name="ID")],
            properties=[
                CsdlProperty(name="ID", type="Edm.Int64", nullable=False, annotations=_computed()),
                CsdlProperty(name="CustomerID", type="Edm.Int32", nullable=False),
                CsdlProperty(name="Product", type="Edm.String", nullable=False),
                CsdlProperty(name="Quantity", type="Edm.Int32", nullable=False),
                *_timestamps(),
            ],
            navigation_properties=[
                CsdlNavigationProperty(
                    name="Customer",
                    type=f"{NAMESPACE}.Customer",
                    nullable=False,
                    referential_constraints=[
                        CsdlReferentialConstraint(property="CustomerID", referenced_property="ID")
                    ],
                )
            ],
        )
        concurrency = CsdlAnnotation(
            term=OPTIMISTIC_CONCURRENCY,
            value=Collection([Path(name, PathKind.PropertyPath) for name in self.concurrency]),
        )
        container = CsdlEntityContainer(
            name="Container",
            entity_sets=[
                CsdlEntitySet(name="Tasks", type=f"{NAMESPACE}.Task", annotations=[concurrency]),
                CsdlEntitySet(name="Customers", type=f"{NAMESPACE}.Customer", annotations=[concurrency]),
                CsdlEntitySet(
                    name="Orders",
                    type=f"{NAMESPACE}.Order",
                    annotations=[concurrency],
                    navigation_property_bindings=[
                        CsdlNavigationPropertyBinding(path="Customer", target="Customers")
                    ],
                ),
            ],
        )
        return [
            CsdlSchema(
                namespace=NAMESPACE,
                entity_types=[task, customer, order],
                entity_container=container,
            )
        ]
