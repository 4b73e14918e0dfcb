package dev.packed4j.processor.diagnostics;

import static com.google.common.truth.Truth.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class NearNamesTest {

  @Test
  void closestIgnoresCaseAndTheNameItself() {
    assertThat(NearNames.closest("Calculatorref", List.of("Calculator", "CalculatorRef", "Node")))
        .hasValue("CalculatorRef");
    assertThat(NearNames.closest("Node", List.of("Node"))).isEmpty();
  }

  @Test
  void farNamesAreNotSuggested() {
    assertThat(NearNames.closest("Calculator", List.of("Node", "Tensor"))).isEmpty();
    assertThat(NearNames.didYouMean("Calculator", List.of("Node"))).isEmpty();
  }

  @Test
  void aLongNamespaceDoesNotMakeAnUnrelatedNameNear() {
    List<String> billing = List.of("mycompany.billing.Refund", "mycompany.billing.Invoice");
    assertThat(NearNames.closest("mycompany.billing.Credit", billing)).isEmpty();
    assertThat(NearNames.closest("mycompany.billing.Payment", billing)).isEmpty();
    assertThat(NearNames.closest("geometry.shapes.Size", List.of("geometry.shapes.Scale"))).isEmpty();
  }

  @Test
  void aTypoOrARenameInTheSameNamespaceIsNear() {
    assertThat(NearNames.closest("calc.Sum", List.of("calc.Sub", "calc.Product"))).hasValue("calc.Sub");
    assertThat(NearNames.closest("ledger.FormatCents", List.of("ledger.Deposit", "ledger.FormatAmount")))
        .hasValue("ledger.FormatAmount");
  }

  @Test
  void hintIsASentence() {
    assertThat(NearNames.didYouMean("Nodes", List.of("Node"))).isEqualTo(". Did you mean Node?");
  }
}
