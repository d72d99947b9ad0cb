package org.meterstore.query.internal.plan;

import java.util.function.Function;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.tools.RelBuilderFactory;

/**
 * A plain {@link RelRule.Config} (Calcite generates its own with Immutables, which this module does
 * not use): operands, description and the rule's constructor.
 */
record RuleConfig(
    RelRule.OperandTransform operandSupplier,
    String description,
    RelBuilderFactory relBuilderFactory,
    Function<RuleConfig, RelOptRule> factory)
    implements RelRule.Config {

  static RuleConfig of(
      String description,
      RelRule.OperandTransform operands,
      Function<RuleConfig, RelOptRule> factory) {
    return new RuleConfig(
        operands, description, org.apache.calcite.rel.core.RelFactories.LOGICAL_BUILDER, factory);
  }

  @Override
  public RelOptRule toRule() {
    return factory.apply(this);
  }

  @Override
  public RelRule.Config withRelBuilderFactory(RelBuilderFactory f) {
    return new RuleConfig(operandSupplier, description, f, factory);
  }

  @Override
  public RelRule.Config withDescription(String d) {
    return new RuleConfig(operandSupplier, d, relBuilderFactory, factory);
  }

  @Override
  public RelRule.Config withOperandSupplier(RelRule.OperandTransform transform) {
    return new RuleConfig(transform, description, relBuilderFactory, factory);
  }
}
