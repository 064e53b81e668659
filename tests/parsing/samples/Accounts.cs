using System;

namespace Bank.Accounts
{
    /// <summary>A bank account.</summary>
    [Serializable]
    public class Account
    {
        public decimal Balance { get; private set; }

        public Account(decimal opening)
        {
            Balance = opening;
        }

        /// <summary>Deposit money.</summary>
        [Obsolete("use Credit")]
        public void Deposit(decimal amount)
        {
            Balance += amount;
        }
    }

    public interface IAuditable
    {
        void Audit();
    }

    public record Transfer(decimal Amount);
}
