package dev.packed4j.processor.diagnostics;

import static com.google.common.truth.Truth.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class NearNamesTest {

  @Test
  void distanceCountsEditsAndTranspositions() {
    assertThat(NearNames.distance("price", "price")).isEqualTo(0);
    assertThat(NearNames.distance("price", "prise")).isEqualTo(1);
    assertThat(NearNames.distance("price", "rpice")).isEqualTo(1);
    assertThat(NearNames.distance("price", "pric")).isEqualTo(1);
    assertThat(NearNames.distance("", "abc")).isEqualTo(3);
  }

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
  void hintIsASentence() {
    assertThat(NearNames.didYouMean("Nodes", List.of("Node"))).isEqualTo(". Did you mean Node?");
  }
}
