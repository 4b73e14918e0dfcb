package dev.packed4j.types;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The one "did you mean" rule of the processor and the runtime. */
class NearNamesTest {
  @Test
  void distanceCountsEditsAndTranspositions() {
    assertEquals(0, NearNames.distance("price", "price"));
    assertEquals(1, NearNames.distance("price", "prise"));
    assertEquals(1, NearNames.distance("price", "rpice"));
    assertEquals(1, NearNames.distance("price", "pric"));
    assertEquals(3, NearNames.distance("", "abc"));
  }

  @Test
  void aTypoARenameAndTheSameLastSegmentAreNear() {
    assertEquals(List.of("calc.Sub"), NearNames.near("calc.Sum", List.of("calc.Sub", "calc.Product")));
    assertEquals(List.of("ledger.FormatAmount"),
        NearNames.near("ledger.FormatCents", List.of("ledger.FormatAmount", "ledger.Deposit", "ledger.Transfer")));
    assertEquals(List.of("calculator.Sum"), NearNames.near("calculater.Sum", List.of("calculator.Sum")));
    assertEquals(List.of("calculator.MyAdd", "other.MyAdd"),
        NearNames.near("calculator.myadd", List.of("calculator.MyAdd", "calculator.Mul", "other.MyAdd")));
    assertEquals(List.of(), NearNames.near("Node", List.of("Node")));
  }

  @Test
  void aLongNamespaceDoesNotStretchTheBudgetToUnrelatedNames() {
    List<String> billing = List.of("mycompany.billing.Refund", "mycompany.billing.Invoice");
    assertEquals(List.of(), NearNames.near("mycompany.billing.Credit", billing));
    assertEquals(List.of(), NearNames.near("mycompany.billing.Payment", billing));
    assertEquals(List.of(), NearNames.near("geometry.shapes.Size", List.of("geometry.shapes.Scale")));
  }

  @Test
  void aRenameKeepsItsNamespace() {
    assertEquals(List.of(), NearNames.near("ledger.FormatCents", List.of("audit.FormatAmount")));
  }
}
